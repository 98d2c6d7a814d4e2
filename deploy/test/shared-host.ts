// The shared host of the two-host topology test (run-two-hosts.ts starts this file on host C, in its
// namespace): a PostgreSQL of its own (initdb into a temporary folder, run as the `postgres` user), Redis, and
// OpenStack Swift with s3api, each listening on the host's address (argv[2]). Prints one
// `SHARED_HOST {json}` line with the services' settings once all answer; SIGTERM stops them and removes their
// folders.
import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startObjectStore } from '../../harness/object-store.ts';
import { listening } from './platform.ts';

const host = process.argv[2] ?? '127.0.0.1';
const POSTGRES_PORT = 5432;
const REDIS_PORT = 6379;
/** Debian's PostgreSQL server programs (the newest major version installed). */
const POSTGRES_BIN = path.join(
  '/usr/lib/postgresql',
  fs
    .readdirSync('/usr/lib/postgresql')
    .sort((a, b) => Number(b) - Number(a))
    .at(0) ?? '',
  'bin',
);

const children: ChildProcess[] = [];
const folders: string[] = [];

/** PostgreSQL as the `postgres` user (it refuses root), trusting the LAN (the test's own namespaces). */
async function startPostgres(): Promise<string> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-hosts-pg-'));
  folders.push(dir);
  const asPostgres = ['-u', 'postgres', '--'];
  execFileSync('chown', ['postgres', dir]);
  execFileSync('runuser', [
    ...asPostgres,
    path.join(POSTGRES_BIN, 'initdb'),
    ...['-D', path.join(dir, 'data'), '-U', 'postgres', '--auth=trust', '--no-sync'],
  ]);
  fs.appendFileSync(path.join(dir, 'data', 'pg_hba.conf'), `host all all ${host}/24 trust\n`);
  const server = spawn(
    'runuser',
    [
      ...asPostgres,
      path.join(POSTGRES_BIN, 'postgres'),
      ...['-D', path.join(dir, 'data'), '-h', host, '-p', String(POSTGRES_PORT), '-k', dir],
      // A test's database: nothing needs to survive a crash of the host.
      ...['-c', 'fsync=off', '-c', 'synchronous_commit=off', '-c', 'full_page_writes=off'],
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  children.push(server);
  await listening(POSTGRES_PORT, 'PostgreSQL', server, host);
  return `postgres://postgres@${host}:${POSTGRES_PORT}/postgres`;
}

async function startRedis(): Promise<string> {
  const server = spawn(
    'redis-server',
    [
      '--bind',
      host,
      '--port',
      String(REDIS_PORT),
      '--save',
      '',
      '--appendonly',
      'no',
      '--protected-mode',
      'no',
    ],
    { stdio: ['ignore', 'ignore', 'inherit'] },
  );
  children.push(server);
  await listening(REDIS_PORT, 'Redis', server, host);
  return `redis://${host}:${REDIS_PORT}`;
}

const [databaseUrl, redisUrl, store] = await Promise.all([
  startPostgres(),
  startRedis(),
  startObjectStore({ host }),
]);

let stopping = false;
async function stop() {
  if (stopping) return;
  stopping = true;
  await store.stop();
  await Promise.all(
    children.map((child) => {
      if (child.exitCode !== null || child.signalCode !== null) return undefined;
      const gone = new Promise((resolve) => child.once('exit', resolve));
      child.kill('SIGTERM');
      setTimeout(() => child.kill('SIGKILL'), 5_000).unref();
      return gone;
    }),
  );
  for (const folder of folders) fs.rmSync(folder, { recursive: true, force: true });
  process.exit(0);
}
process.on('SIGTERM', () => void stop());
process.on('SIGINT', () => void stop());

console.log(`SHARED_HOST ${JSON.stringify({ databaseUrl, redisUrl, storage: store.env })}`);
// Bounded: a test that forgot this host leaves nothing running past half an hour.
setTimeout(() => void stop(), 1_800_000);
