import { type ChildProcess, spawn } from 'node:child_process';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { CreateBucketCommand, S3Client } from '@aws-sdk/client-s3';
import type { S3Settings } from '@sea/service-kit/storage/storage-config';
import { freePort } from '@sea/service-kit/test/free-port';

/** How to reach the object store's bucket, as both services' S3 settings take it. */
export type ObjectStoreSettings = S3Settings;

export type ObjectStore = ObjectStoreSettings & {
  /** A user of the same account without any right on the bucket: every write (and read) is refused. */
  refused: { accessKeyId: string; secretAccessKey: string };
  /** The API server's environment for this bucket (STORAGE=s3 and the S3_* settings). */
  env: Record<string, string>;
  /** The API server's storage setting for this bucket, as its config takes it (`STORAGE=s3` read). */
  storage: { kind: 's3' } & ObjectStoreSettings;
  /** Stops the store's front (the proxy): every request is refused at connect, as with a store that is down. */
  down(): Promise<void>;
  /** Starts the proxy again on the same port; answers once it serves (the bucket and its files are kept). */
  up(): Promise<void>;
  stop(): Promise<void>;
};

const SWIFT_BIN = '/usr/bin';
/** Swift's Python (its packages are the system's, not any other Python on the path). */
const PYTHON = '/usr/bin/python3';
/** Starting four Python servers takes seconds on an idle machine and far longer on a loaded one. */
const START_TIMEOUT_MS = 120_000;
const STOP_TIMEOUT_MS = 5_000;
const REGION = 'us-east-1';

/** Whether OpenStack Swift (proxy, account, container, object servers) and memcached are installed. */
export async function objectStoreAvailable(): Promise<boolean> {
  const { access } = await import('node:fs/promises');
  const needed = [
    'swift-proxy-server',
    'swift-account-server',
    'swift-container-server',
    'swift-object-server',
  ].map((name) => path.join(SWIFT_BIN, name));
  try {
    await Promise.all([...needed, PYTHON, '/usr/bin/memcached'].map((file) => access(file)));
    return true;
  } catch {
    return false;
  }
}

/**
 * A real S3-compatible object store for tests: OpenStack Swift with its `s3api` middleware and `tempauth`, on
 * free loopback ports, with a one-replica ring on one device folder and everything (rings, configs, data) in a
 * temporary folder that {@link ObjectStore.stop} removes. Answers once the bucket `sea-test` exists. `host` is
 * the address the proxy listens on and the endpoint names (127.0.0.1; the deploy test's shared host gives its
 * own, the servers behind the proxy staying on 127.0.0.1).
 */
export async function startObjectStore({ host = '127.0.0.1' } = {}): Promise<ObjectStore> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sea-swift-'));
  const children: ChildProcess[] = [];
  const logs: string[] = [];
  const stop = async () => {
    await Promise.all(children.map((child) => stopChild(child)));
    await rm(dir, { recursive: true, force: true });
  };
  try {
    const ports = {
      proxy: await freePort(),
      account: await freePort(),
      container: await freePort(),
      object: await freePort(),
      memcached: await freePort(),
    };
    await mkdir(path.join(dir, 'srv', 'd1'), { recursive: true });
    await run(PYTHON, [
      '-c',
      RING_SCRIPT,
      dir,
      String(ports.account),
      String(ports.container),
      String(ports.object),
    ]);
    for (const server of ['account', 'container', 'object'] as const) {
      await writeFile(path.join(dir, `${server}.conf`), serverConf(server, ports[server], dir));
    }
    await writeFile(path.join(dir, 'proxy.conf'), proxyConf(host, ports.proxy, ports.memcached, dir));
    const start = (command: string, args: string[]) => {
      const child = spawn(command, args, { stdio: ['ignore', 'pipe', 'pipe'] });
      const keep = (chunk: Buffer) => {
        logs.push(chunk.toString());
        if (logs.length > 200) logs.shift();
      };
      child.stdout?.on('data', keep);
      child.stderr?.on('data', keep);
      children.push(child);
      return child;
    };
    start('/usr/bin/memcached', [
      '-l',
      '127.0.0.1',
      '-p',
      String(ports.memcached),
      '-U',
      '0',
      '-m',
      '16',
      ...(process.getuid?.() === 0 ? ['-u', 'root'] : []),
    ]);
    for (const server of ['account', 'container', 'object'] as const) {
      start(path.join(SWIFT_BIN, `swift-${server}-server`), [path.join(dir, `${server}.conf`)]);
    }
    const startProxy = () =>
      start(path.join(SWIFT_BIN, 'swift-proxy-server'), [path.join(dir, 'proxy.conf')]);
    let proxy = startProxy();

    const endpoint = `http://${host}:${ports.proxy}`;
    const settings: ObjectStoreSettings = {
      endpoint,
      region: REGION,
      bucket: 'sea-test',
      accessKeyId: 'test:tester',
      secretAccessKey: 'testing',
      forcePathStyle: true,
    };
    await waitUntilReady(endpoint, children, logs);
    await createBucket(settings, children, logs);
    return {
      ...settings,
      refused: { accessKeyId: 'test:outsider', secretAccessKey: 'outside' },
      env: {
        STORAGE: 's3',
        S3_ENDPOINT: settings.endpoint,
        S3_REGION: settings.region,
        S3_BUCKET: settings.bucket,
        S3_ACCESS_KEY_ID: settings.accessKeyId,
        S3_SECRET_ACCESS_KEY: settings.secretAccessKey,
        S3_FORCE_PATH_STYLE: 'true',
      },
      storage: { kind: 's3', ...settings },
      down: async () => {
        const at = children.indexOf(proxy);
        if (at === -1) return;
        await stopChild(proxy);
        children.splice(at, 1);
      },
      up: async () => {
        if (children.includes(proxy)) return;
        proxy = startProxy();
        await waitUntilReady(endpoint, children, logs);
      },
      stop,
    };
  } catch (error) {
    await stop();
    throw error;
  }
}

/** Polls the proxy's health check until it answers, a server exits, or the start timeout passes. */
async function waitUntilReady(endpoint: string, children: ChildProcess[], logs: string[]): Promise<void> {
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    const exited = children.find((child) => child.exitCode !== null || child.signalCode !== null);
    if (exited) throw new Error(`a Swift server exited at start:\n${logs.join('').slice(-2000)}`);
    const healthy = await fetch(`${endpoint}/healthcheck`, { signal: AbortSignal.timeout(2_000) })
      .then((answer) => answer.ok)
      .catch(() => false);
    if (healthy) return;
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error(`Swift did not answer within ${START_TIMEOUT_MS} ms:\n${logs.join('').slice(-2000)}`);
}

/**
 * Creates the bucket; the first requests may meet servers still loading (Swift answers 503, which s3api words
 * 'Please reduce your request rate'), for long on a machine busy with other tests: tried until the start's
 * deadline.
 */
async function createBucket(settings: ObjectStoreSettings, children: ChildProcess[], logs: string[]) {
  const client = new S3Client({
    endpoint: settings.endpoint,
    region: settings.region,
    forcePathStyle: true,
    credentials: { accessKeyId: settings.accessKeyId, secretAccessKey: settings.secretAccessKey },
  });
  try {
    let lastError: unknown = null;
    const deadline = Date.now() + START_TIMEOUT_MS;
    for (let attempt = 0; Date.now() < deadline; attempt += 1) {
      if (children.some((child) => child.exitCode !== null)) break;
      try {
        await client.send(new CreateBucketCommand({ Bucket: settings.bucket }));
        return;
      } catch (error) {
        lastError = error;
        await new Promise((resolve) => setTimeout(resolve, Math.min(2_000, 500 * (attempt + 1))));
      }
    }
    throw new Error(
      `the test bucket could not be created: ${String(lastError)}\n${logs.join('').slice(-2000)}`,
    );
  } finally {
    client.destroy();
  }
}

async function stopChild(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  child.kill('SIGTERM');
  const timer = setTimeout(() => child.kill('SIGKILL'), STOP_TIMEOUT_MS);
  await exited;
  clearTimeout(timer);
}

function run(command: string, args: string[]): Promise<void> {
  return new Promise((resolve, reject) => {
    const child = spawn(command, args, { stdio: ['ignore', 'ignore', 'pipe'] });
    let stderr = '';
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    child.once('error', reject);
    child.once('exit', (code) =>
      code === 0 ? resolve() : reject(new Error(`${command} failed (${code}): ${stderr.slice(-2000)}`)),
    );
  });
}

/** Builds the account, container and object rings: 2^6 partitions, one replica, one device each. */
const RING_SCRIPT = `
import sys
from swift.common.ring import RingBuilder
folder = sys.argv[1]
for name, port in zip(('account', 'container', 'object'), sys.argv[2:5]):
    builder = RingBuilder(6, 1, 1)
    builder.add_dev({'id': 0, 'region': 1, 'zone': 1, 'ip': '127.0.0.1', 'port': int(port),
                     'device': 'd1', 'weight': 100, 'meta': ''})
    builder.rebalance()
    builder.get_ring().save(f'{folder}/{name}.ring.gz')
`;

function serverConf(server: 'account' | 'container' | 'object', port: number, dir: string): string {
  return `[DEFAULT]
bind_ip = 127.0.0.1
bind_port = ${port}
workers = 0
swift_dir = ${dir}
devices = ${path.join(dir, 'srv')}
mount_check = false
log_level = WARNING

[pipeline:main]
pipeline = ${server}-server

[app:${server}-server]
use = egg:swift#${server}

[${server}-replicator]
[${server}-updater]
[${server}-auditor]
`;
}

function proxyConf(host: string, port: number, memcachedPort: number, dir: string): string {
  const filters = ['catch_errors', 'gatekeeper', 'healthcheck', 'proxy_logging', 'listing_formats', 'bulk']
    .concat(['copy', 'slo', 'dlo'])
    .map((name) => `[filter:${name.replaceAll('_', '-')}]\nuse = egg:swift#${name}\n`)
    .join('\n');
  return `[DEFAULT]
bind_ip = ${host}
bind_port = ${port}
workers = 0
swift_dir = ${dir}
log_level = WARNING

[pipeline:main]
pipeline = catch-errors gatekeeper healthcheck proxy-logging cache listing-formats bulk s3api tempauth copy slo dlo proxy-logging proxy-server

[app:proxy-server]
use = egg:swift#proxy
account_autocreate = true

[filter:cache]
use = egg:swift#memcache
memcache_servers = 127.0.0.1:${memcachedPort}

[filter:s3api]
use = egg:swift#s3api
location = ${REGION}

[filter:tempauth]
use = egg:swift#tempauth
user_test_tester = testing .admin
user_test_outsider = outside

${filters}`;
}
