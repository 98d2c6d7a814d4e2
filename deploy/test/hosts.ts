import { execFileSync, spawn, type ChildProcess, type SpawnOptions } from 'node:child_process';
import fs from 'node:fs';

/*
 * Hosts as network namespaces, for the two-host topology test. The process that makes them runs in a network
 * namespace of its own (unshare --net), which is the LAN's front: a bridge with the first address, nginx and
 * the browser. Each host is a namespace held by a bounded `sleep`, joined to the bridge by a veth pair, with
 * one address of 127.10.0.0/24: loopback addresses, which the kernel routes between namespaces once
 * `route_localnet` allows it (and nowhere else: nothing here can reach a real network).
 */

const SUBNET = '127.10.0';
const BRIDGE = 'sea-lan';
/** A host's namespace lives at most this long (a test that dies leaves nothing running for long). */
const HOLD_SECONDS = 1_500;

const ip = (...args: string[]) => execFileSync('ip', args, { stdio: ['ignore', 'ignore', 'pipe'] });
/** Lets loopback addresses be routed over the namespace's links (the kernel drops them otherwise). */
const ROUTE_LOOPBACK = ['-qw', 'net.ipv4.conf.all.route_localnet=1'];

/** The LAN's front in this process's own namespace: answers its address (the bridge's). */
export function frontOfLan(): string {
  ip('link', 'set', 'lo', 'up');
  execFileSync('sysctl', ROUTE_LOOPBACK);
  ip('link', 'add', BRIDGE, 'type', 'bridge');
  ip('addr', 'add', `${SUBNET}.1/24`, 'dev', BRIDGE);
  ip('link', 'set', BRIDGE, 'up');
  return `${SUBNET}.1`;
}

/** A host of the LAN: its address, the processes it runs, and a power switch. */
export class Host {
  readonly address: string;
  readonly #name: string;
  #holder: ChildProcess | null = null;
  readonly #processes = new Set<ChildProcess>();

  constructor(name: string, last: number) {
    this.#name = name;
    this.address = `${SUBNET}.${last}`;
  }

  /** Boots the host: a fresh namespace with its address on the LAN (again after {@link kill}, the same one). */
  async boot(): Promise<void> {
    const holder = spawn('unshare', ['--net', 'sleep', String(HOLD_SECONDS)], { stdio: 'ignore' });
    this.#holder = holder;
    const ours = fs.readlinkSync('/proc/self/ns/net');
    const deadline = Date.now() + 5_000;
    while (readNamespace(holder.pid) === ours || readNamespace(holder.pid) === null) {
      if (Date.now() > deadline || holder.exitCode !== null)
        throw new Error(`host ${this.#name}: no namespace`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    const outside = `sea-${this.#name}`;
    ip('link', 'add', outside, 'type', 'veth', 'peer', 'name', `${outside}-in`);
    ip('link', 'set', `${outside}-in`, 'netns', String(holder.pid));
    ip('link', 'set', outside, 'master', BRIDGE);
    ip('link', 'set', outside, 'up');
    const inside = (...args: string[]) =>
      execFileSync('nsenter', [`--net=/proc/${holder.pid}/ns/net`, '--', ...args], {
        stdio: ['ignore', 'ignore', 'pipe'],
      });
    inside('ip', 'link', 'set', 'lo', 'up');
    inside('sysctl', ...ROUTE_LOOPBACK);
    inside('ip', 'link', 'set', `${outside}-in`, 'name', 'eth0');
    inside('ip', 'addr', 'add', `${this.address}/24`, 'dev', 'eth0');
    inside('ip', 'link', 'set', 'eth0', 'up');
  }

  /**
   * Runs a command on this host (in its namespace), in a process group of its own; the host's {@link kill}
   * ends the group (what it started too).
   */
  spawn(command: string, args: string[], options: SpawnOptions = {}): ChildProcess {
    if (!this.#holder?.pid) throw new Error(`host ${this.#name} is down`);
    const child = spawn('nsenter', [`--net=/proc/${this.#holder.pid}/ns/net`, '--', command, ...args], {
      ...options,
      detached: true,
    });
    this.#processes.add(child);
    child.once('exit', () => this.#processes.delete(child));
    return child;
  }

  /**
   * Pulls the plug: the host leaves the LAN first (its link deleted), then every process of the host is
   * killed (SIGKILL), so its peers see no reset or refusal, only silence, as with a host that loses its power.
   * Its files stay.
   */
  async kill(): Promise<void> {
    if (this.#holder) ip('link', 'del', `sea-${this.#name}`);
    const holder = this.#holder;
    const all = [...this.#processes, ...(holder ? [holder] : [])];
    await Promise.all(
      all.map((child) => {
        if (child.exitCode !== null || child.signalCode !== null) return undefined;
        const gone = new Promise((resolve) => child.once('exit', resolve));
        if (child === holder || !child.pid) child.kill('SIGKILL');
        else process.kill(-child.pid, 'SIGKILL');
        return gone;
      }),
    );
    this.#holder = null;
  }
}

function readNamespace(pid: number | undefined): string | null {
  try {
    return fs.readlinkSync(`/proc/${pid}/ns/net`);
  } catch {
    return null;
  }
}
