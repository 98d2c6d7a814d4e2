import type { EventLoopUtilization } from 'node:perf_hooks';
import { Worker } from 'node:worker_threads';
import type { Layer } from '@sea/contract/live';
import { LiveError } from '../live-error.ts';
import { log } from '../log.ts';
import type { RtcOptions } from '../rtc/peer-connection.ts';
import type { Producer } from '../rtc/producer.ts';
import type { Call, FromWorker, ToWorker, WorkerCounts, WorkerSetup } from './messages.ts';
import { RemoteConsumerTransport } from './remote-consumer-transport.ts';

/** What the pool does for a worker. */
export type WorkerHooks = {
  /** Sends these streams' packets to the worker from now on: the transport `transportId` consumes them. */
  feed(worker: WorkerHandle, transportId: string, producers: Producer[]): void;
  /** The transport `transportId` of the worker closed: it consumes nothing any more. */
  released(worker: WorkerHandle, transportId: string): void;
  /** A consumer in the worker asks for a keyframe. */
  keyframe(streamId: string, layer: Layer): void;
  /** The thread stopped without being asked to (it crashed): its transports ended already (`workerLost`). */
  exited(worker: WorkerHandle): void;
};

/**
 * The young generation of a forwarding worker's heap, in MB. Node gives a worker 192 MB by default; forwarding
 * allocates a few small objects per packet and student (the cipher, its output, the datagram's parts), and a
 * smaller nursery, collected more often, stays in the processor's caches. At 100 students, in five alternating
 * pairs, the process used 39.4-47.8% of a core (mean 44.7%) with the default and 38.2-45.6% (mean 40.5%) with
 * 32 MB; 96 MB and 16 MB did no better than 32 (`bench/sfu/README.md`, evening of 2026-11-28).
 */
const YOUNG_GENERATION_MB = 32;
/**
 * The worker's module, beside this one's: its source run from the sources, its bundle from `dist/`
 * (`scripts/build-services.ts` makes it an entry of its own).
 */
const WORKER_FILE = import.meta.url.endsWith('.ts') ? './forwarding-worker.ts' : './forwarding-worker.js';

type Pending = { resolve: (value: unknown) => void; reject: (error: Error) => void };

/** The main thread's side of one forwarding worker thread: its calls, its transports, its messages. */
export class WorkerHandle {
  private readonly thread: Worker;
  private readonly hooks: WorkerHooks;
  private readonly transports = new Map<string, RemoteConsumerTransport>();
  private readonly pending = new Map<number, Pending>();
  private nextCall = 0;
  private stopping = false;
  private exited = false;
  private lastUtilization: EventLoopUtilization | null = null;

  constructor(rtc: RtcOptions, hooks: WorkerHooks) {
    this.hooks = hooks;
    const setup: WorkerSetup = { rtc };
    this.thread = new Worker(new URL(WORKER_FILE, import.meta.url), {
      workerData: setup,
      resourceLimits: { maxYoungGenerationSizeMb: YOUNG_GENERATION_MB },
    });
    // The media service's own server keeps the process alive; a worker alone must not (tests, shutdown).
    this.thread.unref();
    this.thread.on('message', (message: FromWorker) => this.receive(message));
    this.thread.on('error', (error) => log.error({ err: error }, 'a forwarding worker failed'));
    this.thread.on('exit', (code) => this.onExit(code));
  }

  /** Number of students' transports in this worker. */
  get load(): number {
    return this.transports.size;
  }

  /** A new receiving transport in this worker. */
  createTransport(): RemoteConsumerTransport {
    const transport = new RemoteConsumerTransport({
      call: (call) => this.call(call),
      feed: (producers) => this.hooks.feed(this, transport.id, producers),
      release: (transportId) => this.release(transportId),
    });
    this.transports.set(transport.id, transport);
    transport.closed.subscribe(() => {
      this.transports.delete(transport.id);
      this.hooks.released(this, transport.id);
    });
    // Later calls about the transport queue behind this one in the worker.
    this.call({ op: 'create', transportId: transport.id }).catch((error: unknown) => {
      // Stopping (the service shuts down) or crashed: its transports end with it, and that is reported there.
      if (!this.exited) {
        log.error({ err: error, transportId: transport.id }, 'creating a student connection failed');
      }
      transport.ended();
    });
    return transport;
  }

  /**
   * The share of time the worker's event loop was busy since the previous call (since it started, the first
   * time): its forwarding load, 0 to 1.
   */
  utilization(): number {
    const now = this.thread.performance.eventLoopUtilization();
    const since = this.lastUtilization
      ? this.thread.performance.eventLoopUtilization(now, this.lastUtilization)
      : now;
    this.lastUtilization = now;
    return since.utilization;
  }

  /** What the worker holds now. */
  counts(): Promise<WorkerCounts> {
    return this.call({ op: 'counts' }) as Promise<WorkerCounts>;
  }

  /** Sends a call; resolves with the answer, rejects with the worker's refusal (a `LiveError`) or failure. */
  call(call: Call): Promise<unknown> {
    if (this.exited) return Promise.reject(new Error('the forwarding worker has stopped'));
    const n = this.nextCall++;
    return new Promise((resolve, reject) => {
      this.pending.set(n, { resolve, reject });
      this.post({ t: 'call', n, call });
    });
  }

  private release(transportId: string): void {
    if (this.exited || this.stopping) return; // its transports are gone with it
    this.call({ op: 'close', transportId }).catch((error: unknown) => {
      if (!this.exited) log.error({ err: error, transportId }, 'closing a student connection failed');
    });
  }

  post(message: ToWorker): void {
    if (!this.exited) this.thread.postMessage(message);
  }

  /** Stops the thread; its transports close. */
  async stop(): Promise<void> {
    this.stopping = true;
    await this.thread.terminate();
  }

  private receive(message: FromWorker): void {
    switch (message.t) {
      case 'keyframe':
        this.hooks.keyframe(message.id, message.layer);
        return;
      case 'transportClosed':
        this.transports.get(message.transportId)?.ended();
        return;
      default: {
        const pending = this.pending.get(message.n);
        if (!pending) return;
        this.pending.delete(message.n);
        if (message.t === 'reply') pending.resolve(message.value);
        else if (message.t === 'refused') pending.reject(new LiveError(message.code, message.message));
        else pending.reject(new Error(`forwarding worker: ${message.message}`));
      }
    }
  }

  private onExit(code: number): void {
    this.exited = true;
    for (const { reject } of this.pending.values()) reject(new Error('the forwarding worker has stopped'));
    this.pending.clear();
    // Stopped on purpose only when the service shuts down, after every room closed.
    for (const transport of [...this.transports.values()])
      transport.ended(this.stopping ? 'closed' : 'workerLost');
    this.transports.clear();
    if (!this.stopping) {
      log.error({ exitCode: code }, 'a forwarding worker stopped');
      this.hooks.exited(this);
    }
  }
}
