import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';

/** A loopback page running one bundled script: its address, and `close()`. */
export type BundleSite = { url: string; close: () => void };

/**
 * Bundles `entry` (a browser script of the media tests or the SFU benchmark, importing the web app's live
 * classes) with esbuild and serves it on 127.0.0.1 as the only script of a blank page.
 */
export async function serveBundle(entry: URL): Promise<BundleSite> {
  const bundle = await build({
    entryPoints: [fileURLToPath(entry)],
    bundle: true,
    format: 'iife',
    platform: 'browser',
    target: 'chrome120',
    write: false,
  });
  const script = bundle.outputFiles[0]?.text ?? '';
  const site = http.createServer((request, response) => {
    if (request.url === '/bundle.js') {
      response.writeHead(200, { 'content-type': 'text/javascript' }).end(script);
    } else {
      response
        .writeHead(200, { 'content-type': 'text/html' })
        .end('<!doctype html><script src="/bundle.js"></script>');
    }
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(site.address() as AddressInfo).port}/`,
    close: () => site.close(),
  };
}
