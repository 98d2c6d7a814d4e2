import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import https from 'node:https';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { startServer, stopServer, type ServerProcess } from '../../apps/server/test/server-process.ts';
import { buildServicesOnce } from '../../harness/service-build.ts';
import { BUNDLE_NODE_FLAGS } from '../../scripts/service-flags.ts';
import { renderConfig } from './render-config.ts';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const START_TIMEOUT_MS = 60_000;

/** Resolves once something accepts TCP connections on the port of `host` (bounded). */
export async function listening(
  port: number,
  what: string,
  child?: ChildProcess,
  host = '127.0.0.1',
): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  for (;;) {
    const up = await new Promise<boolean>((resolve) => {
      const socket = net.connect(port, host);
      socket.once('connect', () => resolve(true));
      socket.once('error', () => resolve(false));
    }).catch(() => false);
    if (up) return;
    if (Date.now() > deadline || (child && child.exitCode !== null)) throw new Error(`${what} did not start`);
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
}

/** An HTTPS request through the proxy, trusting the test's self-signed certificate. */
export function httpsRequest(
  url: string,
  ca: string,
  options: { method?: string; headers?: Record<string, string>; body?: string } = {},
): Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: string }> {
  return new Promise((resolve, reject) => {
    const request = https.request(
      url,
      { method: options.method ?? 'GET', headers: options.headers, ca },
      (res) => {
        let body = '';
        res.setEncoding('utf8');
        res.on('data', (chunk: string) => (body += chunk));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body }));
      },
    );
    request.once('error', reject);
    request.setTimeout(10_000, () => request.destroy(new Error(`${url}: no answer`)));
    request.end(options.body);
  });
}

export type Ports = {
  https: number;
  http: number;
  api: [number, number];
  media: number;
  turn: number;
  turns: number;
};

/** A self-signed certificate for `address` (what docs/deploy.md makes with the same openssl command). */
export function selfSignedCertificate(dir: string, address = '127.0.0.1'): { cert: string; key: string } {
  const cert = path.join(dir, 'cert.pem');
  const key = path.join(dir, 'key.pem');
  execFileSync(
    'openssl',
    [
      'req',
      '-x509',
      '-newkey',
      'rsa:2048',
      '-nodes',
      '-days',
      '2',
      '-subj',
      `/CN=${address}`,
      '-addext',
      `subjectAltName=IP:${address}`,
      '-keyout',
      key,
      '-out',
      cert,
    ],
    { stdio: 'ignore' },
  );
  return { cert, key };
}

/** The base64 SHA-256 of a certificate's public key, as Chromium's --ignore-certificate-errors-spki-list takes it. */
export function spkiHash(cert: string): string {
  const der = execFileSync('sh', [
    '-c',
    `openssl x509 -pubkey -noout -in '${cert}' | openssl pkey -pubin -outform der | openssl dgst -sha256 -binary`,
  ]);
  return der.toString('base64');
}

/**
 * nginx in the foreground with the repository's site file, rendered, inside a minimal main configuration;
 * with `nodes`, the media node file rendered once for each of their values too (several hosts). Resolves once
 * `port` of `host` accepts connections.
 */
export async function startNginx(
  dir: string,
  values: Record<string, string>,
  port: number,
  { nodes = [], host = '127.0.0.1' }: { nodes?: Record<string, string>[]; host?: string } = {},
): Promise<ChildProcess> {
  const site = path.join(dir, 'sea-academy.conf');
  fs.writeFileSync(site, renderConfig(new URL('../nginx/sea-academy.conf', import.meta.url), values));
  const nodeSites = nodes.map((node, index) => {
    const file = path.join(dir, `sea-media-node-${index}.conf`);
    fs.writeFileSync(file, renderConfig(new URL('../nginx/sea-media-node.conf', import.meta.url), node));
    return file;
  });
  const main = path.join(dir, 'nginx.conf');
  const temp = (name: string) => `${name}_temp_path ${path.join(dir, name)};`;
  fs.writeFileSync(
    main,
    [
      'daemon off;',
      'worker_processes 1;',
      `pid ${path.join(dir, 'nginx.pid')};`,
      `error_log ${path.join(dir, 'nginx-error.log')} warn;`,
      // Run as this user: the test's files are its own (a root nginx would switch to nobody otherwise).
      ...(process.getuid?.() === 0 ? ['user root;'] : []),
      'events { worker_connections 512; }',
      'http {',
      '  access_log off;',
      `  ${temp('client_body')} ${temp('proxy')} ${temp('fastcgi')} ${temp('uwsgi')} ${temp('scgi')}`,
      ...[site, ...nodeSites].map((file) => `  include ${file};`),
      '}',
    ].join('\n'),
  );
  const child = spawn('nginx', ['-c', main, '-p', dir], { stdio: ['ignore', 'ignore', 'pipe'] });
  await listening(port, `nginx (${path.join(dir, 'nginx-error.log')})`, child, host);
  return child;
}

/** coturn in the foreground with the repository's configuration, rendered; `extra` lines appended. */
export async function startCoturn(
  dir: string,
  values: Record<string, string>,
  extra: string[],
  port: number,
): Promise<ChildProcess> {
  const file = path.join(dir, 'turnserver.conf');
  const rendered = renderConfig(new URL('../coturn/turnserver.conf', import.meta.url), values);
  fs.writeFileSync(file, `${rendered}\n${extra.join('\n')}\n`);
  const child = spawn('turnserver', ['-c', file], { stdio: ['ignore', 'pipe', 'pipe'] });
  let output = '';
  child.stdout?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  child.stderr?.on('data', (chunk: Buffer) => (output += chunk.toString()));
  await listening(port, 'coturn', child).catch((error: unknown) => {
    throw new Error(`${(error as Error).message}:\n${output}`);
  });
  return child;
}

/** The media service (its bundle), as its systemd unit runs it; resolves once healthy. */
export async function startMedia(env: Record<string, string>, port: number): Promise<ChildProcess> {
  const child = spawn(process.execPath, [...BUNDLE_NODE_FLAGS, buildServicesOnce().media], {
    cwd: ROOT,
    env: { ...process.env, ...env, MEDIA_HOST: '127.0.0.1', MEDIA_PORT: String(port) },
    stdio: ['ignore', 'ignore', 'pipe'],
  });
  await listening(port, 'the media service', child);
  return child;
}

/** Ends a child and waits for it (SIGTERM, then SIGKILL after 10 s). */
export async function stop(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const gone = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), 10_000);
  await gone;
  clearTimeout(timer);
}

/**
 * Two API servers (their bundle, as the systemd units run it) on the same database and Redis, on fixed ports
 * (the proxy's upstreams).
 */
export async function startApiServers(
  env: Record<string, string>,
  ports: [number, number],
): Promise<ServerProcess[]> {
  const servers: ServerProcess[] = [];
  // One after the other: the first migrates the database.
  const args = [...BUNDLE_NODE_FLAGS, path.join(ROOT, buildServicesOnce().server)];
  for (const port of ports) servers.push(await startServer({ ...env, PORT: String(port) }, args));
  return servers;
}

export { stopServer };

export function tempDir(): string {
  return fs.mkdtempSync(path.join(os.tmpdir(), 'sea-topology-'));
}
