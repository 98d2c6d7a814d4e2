// Janus (a C SFU, `--server janus` of the benchmark) started from the benchmark with a configuration of its own
// in a temporary folder: HTTP API on 127.0.0.1, no STUN server, only the VideoRoom plugin and the HTTP
// transport loaded; nothing of the system's /etc/janus is read. Janus never gathers ICE candidates on a
// loopback interface, so inside the benchmark's own network namespace (which has only `lo`) it gets one
// interface of its own, a veth pair that leads nowhere, whose address is as local as 127.0.0.1.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '@sea/service-kit/test/free-port';

const JANUS = process.env.JANUS_PATH ?? 'janus';
/** Where the Debian package puts Janus's plugins and transports (`JANUS_LIB` overrides it). */
const JANUS_LIB = process.env.JANUS_LIB ?? '/usr/lib/x86_64-linux-gnu/janus';
const READY_TIMEOUT_MS = 20_000;
/** The interface Janus gathers its one ICE candidate on, inside the benchmark's network namespace. */
const ICE_INTERFACE = 'sfub0';
export const JANUS_ICE_ADDRESS = '10.255.255.1';

/** Gives Janus an interface of its own in the benchmark's namespace (once; never outside that namespace). */
function addIceInterface(): void {
  if (process.env.SEA_NETNS !== '1')
    throw new Error(
      '--server janus: Janus gathers no ICE candidate on loopback, and the benchmark adds an interface only ' +
        'inside its own network namespace, which could not be created here (unshare --net needs root)',
    );
  if (spawnSync('ip', ['link', 'show', ICE_INTERFACE]).status === 0) return;
  const commands = [
    ['link', 'add', ICE_INTERFACE, 'type', 'veth', 'peer', 'name', `${ICE_INTERFACE}p`],
    ['addr', 'add', `${JANUS_ICE_ADDRESS}/32`, 'dev', ICE_INTERFACE],
    ['link', 'set', ICE_INTERFACE, 'up'],
    ['link', 'set', `${ICE_INTERFACE}p`, 'up'],
  ];
  for (const command of commands) {
    const run = spawnSync('ip', command, { encoding: 'utf8' });
    if (run.status !== 0) throw new Error(`--server janus: ip ${command.join(' ')}: ${run.stderr.trim()}`);
  }
}

/** Janus's version line, or an error saying what to install when it is missing. */
export function janusVersion(): string {
  // Janus 1.1 prints its version for `--version`, then exits 1 ("Unknown option").
  const run = spawnSync(JANUS, ['--version'], { encoding: 'utf8' });
  if (run.error || !/Janus version/.test(run.stdout)) {
    throw new Error(
      `--server janus needs Janus (1.1 or later, with its VideoRoom plugin and HTTP transport): ` +
        `'${JANUS} --version' failed (${run.error?.message ?? `exit ${run.status}`}). ` +
        `Install it (Debian: apt-get install janus) or set JANUS_PATH; JANUS_LIB names its plugin folder.`,
    );
  }
  for (const file of ['plugins/libjanus_videoroom.so', 'transports/libjanus_http.so']) {
    if (!fs.existsSync(path.join(JANUS_LIB, file)))
      throw new Error(
        `--server janus: no ${file} under ${JANUS_LIB} (set JANUS_LIB to Janus's library folder)`,
      );
  }
  return /Janus version: .*/.exec(run.stdout)?.[0] ?? run.stdout.trim();
}

/** Symlinks one library of Janus's into a folder of our own, so that Janus loads only what we chose. */
function only(folder: string, kind: string, library: string): string {
  const dir = path.join(folder, kind);
  fs.mkdirSync(dir, { recursive: true });
  fs.symlinkSync(path.join(JANUS_LIB, kind, library), path.join(dir, library));
  return dir;
}

function writeConfig(folder: string, port: number): void {
  const plugins = only(folder, 'plugins', 'libjanus_videoroom.so');
  const transports = only(folder, 'transports', 'libjanus_http.so');
  for (const kind of ['events', 'loggers']) fs.mkdirSync(path.join(folder, kind), { recursive: true });
  fs.writeFileSync(
    path.join(folder, 'janus.jcfg'),
    `general: {
  configs_folder = "${folder}"
  plugins_folder = "${plugins}"
  transports_folder = "${transports}"
  events_folder = "${path.join(folder, 'events')}"
  loggers_folder = "${path.join(folder, 'loggers')}"
  debug_level = ${process.env.JANUS_LOG ?? 3}
  session_timeout = 0
  server_name = "sfu-bench"
}
certificates: {
}
media: {
  rtp_port_range = "40000-60000"
}
nat: {
  nice_debug = ${process.env.JANUS_LOG === '7' ? 'true' : 'false'}
  ice_enforce_list = "${ICE_INTERFACE}"
  ignore_mdns = true
}
plugins: {
}
transports: {
}
loggers: {
}
events: {
}
`,
  );
  fs.writeFileSync(
    path.join(folder, 'janus.transport.http.jcfg'),
    `general: {
  json = "compact"
  base_path = "/janus"
  http = true
  port = ${port}
  ip = "127.0.0.1"
  https = false
}
admin: {
  admin_http = false
  admin_https = false
}
cors: {
}
`,
  );
  fs.writeFileSync(path.join(folder, 'janus.plugin.videoroom.jcfg'), 'general: {\n}\n');
}

/** A running Janus: its HTTP API's URL, its process (for its CPU time) and `close()`. */
export type JanusServer = { url: string; process: ChildProcess; close(): Promise<void> };

export async function startJanus(): Promise<JanusServer> {
  addIceInterface();
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sfu-bench-janus-'));
  const port = await freePort();
  writeConfig(folder, port);
  // In its own folder: Janus 1.1.2 sometimes crashes as it stops (SIGTERM), and its core file (over 500 MB)
  // then goes away with the folder instead of staying in the working directory.
  const child = spawn(JANUS, ['--config', path.join(folder, 'janus.jcfg'), '--configs-folder', folder], {
    cwd: folder,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let log = '';
  const keep = (chunk: Buffer) => {
    log = (log + chunk.toString()).slice(-20_000);
  };
  // Never left running: the benchmark may exit on an error before close().
  process.once('exit', () => child.kill('SIGKILL'));
  child.stdout.on('data', keep);
  child.stderr.on('data', keep);
  if (process.env.JANUS_LOG) child.stdout.pipe(process.stderr);
  const url = `http://127.0.0.1:${port}/janus`;
  const deadline = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`janus exited (${child.exitCode}):\n${log}`);
    const info = await fetch(`${url}/info`).catch(() => null);
    if (info?.ok) break;
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error(`janus did not answer on ${url} within ${READY_TIMEOUT_MS} ms:\n${log}`);
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return {
    url,
    process: child,
    async close() {
      if (child.exitCode === null) {
        const exited = new Promise((resolve) => child.once('exit', resolve));
        child.kill('SIGTERM');
        await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 5_000))]);
        if (child.exitCode === null) child.kill('SIGKILL');
      }
      fs.rmSync(folder, { recursive: true, force: true });
    },
  };
}
