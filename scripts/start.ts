// `npm start`: builds the web app, then runs the API server and the media service on their embedded
// defaults (PGlite, dev login, local uploads) until Ctrl+C or SIGTERM. It also turns demo data on (the server
// alone defaults to off) so a newcomer sees a living catalogue; DEMO_DATA=false keeps it off.
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const env: NodeJS.ProcessEnv = {
  ...process.env,
  DATA_DIR: process.env.DATA_DIR ?? path.join(root, 'data'),
  DEMO_DATA: process.env.DEMO_DATA ?? 'true',
};
const port = Number(env.PORT ?? 5000);
const children: ChildProcess[] = [];
let stopping = false;

function run(name: string, args: string[], cwd = root): ChildProcess {
  const child = spawn(process.execPath, args, { cwd, env, stdio: 'inherit' });
  children.push(child);
  child.on('exit', (code, signal) => {
    if (stopping) return;
    console.error(`[start] ${name} stopped (${signal ?? code}); stopping the platform.`);
    stop(code ?? 1);
  });
  return child;
}

function stop(code: number): void {
  if (stopping) return;
  stopping = true;
  for (const child of children) child.kill('SIGTERM');
  setTimeout(() => process.exit(code), 5_000).unref();
  Promise.all(
    children.map((c) => new Promise((done) => (c.exitCode === null ? c.once('exit', done) : done(null)))),
  ).then(
    () => process.exit(code),
    () => process.exit(code),
  );
}

async function waitForHealth(deadline: number): Promise<void> {
  while (Date.now() < deadline) {
    try {
      const response = await fetch(`http://127.0.0.1:${port}/health`);
      if (response.ok) return;
    } catch {
      // Not listening yet: keep polling until the deadline.
    }
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  throw new Error('the API server did not become healthy in time');
}

process.on('SIGINT', () => stop(0));
process.on('SIGTERM', () => stop(0));

const build = spawn(process.execPath, [path.join(root, 'node_modules/vite/bin/vite.js'), 'build'], {
  cwd: path.join(root, 'apps/web'),
  env,
  stdio: 'inherit',
});
build.on('exit', async (code) => {
  if (code !== 0) {
    console.error('[start] the web build failed.');
    process.exit(code ?? 1);
  }
  run('API server', ['apps/server/src/main.ts']);
  try {
    await waitForHealth(Date.now() + 180_000);
  } catch (error) {
    console.error(`[start] ${(error as Error).message}`);
    stop(1);
    return;
  }
  run('media service', ['apps/media/src/main.ts']);
  console.log(`[start] 바다학원 is running: http://localhost:${port}`);
});
