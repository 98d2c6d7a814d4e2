import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { REPO_ROOT } from '../../harness/paths.ts';

export type FrontOrigin = { origin: string; close: () => Promise<void> };

/** The client libraries an outside front end would bundle: STOMP and SockJS, as their browser builds. */
const SCRIPTS: Record<string, string> = {
  '/stomp.umd.min.js': 'node_modules/@stomp/stompjs/bundles/stomp.umd.min.js',
  '/sockjs.min.js': 'node_modules/sockjs-client/dist/sockjs.min.js',
};

const PAGE = `<!doctype html>
<html lang="ko">
<head><meta charset="utf-8"><title>다른 출처의 프런트엔드</title>
<script src="/stomp.umd.min.js"></script>
<script src="/sockjs.min.js"></script>
</head>
<body><h1>다른 출처의 프런트엔드</h1></body>
</html>`;

/**
 * A tiny static front end served from its own origin (a free port on 127.0.0.1): one page for every path
 * (its dev-login callback included) that loads @stomp/stompjs and sockjs-client, for journeys that drive the
 * API from another origin.
 */
export async function serveFrontEnd(): Promise<FrontOrigin> {
  const server = http.createServer((request, response) => {
    const pathname = new URL(request.url ?? '/', 'http://front').pathname;
    const script = SCRIPTS[pathname];
    if (script !== undefined) {
      response.writeHead(200, { 'content-type': 'text/javascript; charset=utf-8' });
      response.end(fs.readFileSync(path.join(REPO_ROOT, script)));
      return;
    }
    response.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
    response.end(PAGE);
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const address = server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return {
    origin: `http://127.0.0.1:${address.port}`,
    close: () =>
      new Promise((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
