import type { Layer } from '@sea/contract/live';
import { conflict } from '../live-error.ts';
import type { RtcOptions } from '../rtc/peer-connection.ts';
import type { Producer } from '../rtc/producer.ts';
import type { ReceivingTransport } from '../rtc/receiving-transport.ts';
import type { WorkerCounts } from './messages.ts';
import { wallClockMs } from './stale-video-gate.ts';
import { WorkerHandle, type WorkerHooks } from './worker-handle.ts';

/**
 * A teacher's stream fed to the workers that have students of it: per worker, the transports there that consume
 * it. A worker whose last such transport closed is no longer fed (nor is anyone once no worker needs it).
 */
type Feed = { producer: Producer; workers: Map<WorkerHandle, Set<string>>; release: () => void };

/**
 * Forwarding worker threads: each student's receiving connection (ICE, DTLS, SRTP, its consumers) lives in
 * the least loaded worker, so one room's fan-out uses every core instead of the one Node's main thread runs on.
 * The main thread keeps signalling, rooms and the teacher's connection, and sends each teacher packet, once
 * serialised, to every worker that has students of that stream; keyframe requests come back to the producer,
 * which coalesces them for the whole room.
 */
export class ForwardingPool {
  private readonly rtc: RtcOptions;
  private readonly workers: WorkerHandle[] = [];
  /** By producer id. */
  private readonly feeds = new Map<string, Feed>();
  private readonly hooks: WorkerHooks;
  private isClosed = false;

  private readonly size: number;

  constructor(size: number, rtc: RtcOptions) {
    this.size = size;
    this.rtc = rtc;
    this.hooks = {
      feed: (worker, transportId, producers) => this.feed(worker, transportId, producers),
      released: (worker, transportId) => this.unfeed(worker, transportId),
      keyframe: (streamId, layer) => this.keyframe(streamId, layer),
      exited: (worker) => this.replace(worker),
    };
  }

  /**
   * Starts the threads, if not yet: the media server does it when its first room opens, not at its own start,
   * as each is a V8 isolate of its own with werift loaded, and an idle media node needs none (issue 34, light
   * servers). A transport asked before that starts them too.
   */
  start(): void {
    if (this.isClosed) return;
    while (this.workers.length < this.size) this.workers.push(new WorkerHandle(this.rtc, this.hooks));
  }

  private started(): WorkerHandle[] {
    this.start();
    return this.workers;
  }

  /** A receiving transport in the least loaded worker. */
  createTransport(): ReceivingTransport {
    if (this.isClosed) throw conflict('미디어 서버가 종료 중이에요.');
    const chosen = this.started().reduce((least, worker) => (worker.load < least.load ? worker : least));
    return chosen.createTransport();
  }

  /** What each worker holds (tests, leak checks). */
  counts(): Promise<WorkerCounts[]> {
    return Promise.all(this.workers.map((worker) => worker.counts()));
  }

  /** Each worker's event-loop utilization since the previous call (see {@link WorkerHandle.utilization}). */
  utilization(): number[] {
    return this.workers.map((worker) => worker.utilization());
  }

  /** Number of streams fed to workers now. */
  get feedCount(): number {
    return this.feeds.size;
  }

  /** Stops every worker (their students' connections close) and releases the streams. Idempotent. */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const feed of this.feeds.values()) feed.release();
    this.feeds.clear();
    await Promise.all(this.workers.map((worker) => worker.stop()));
  }

  private feed(worker: WorkerHandle, transportId: string, producers: Producer[]): void {
    for (const producer of producers) {
      if (producer.isClosedNow) continue;
      const feed = this.feeds.get(producer.id) ?? this.open(producer);
      let users = feed.workers.get(worker);
      if (!users) {
        worker.post({
          t: 'stream',
          stream: { id: producer.id, kind: producer.kind, layers: producer.layers },
        });
        // The worker's first student of the stream can be shown a picture at once, as any later one.
        for (const layer of producer.layers) {
          const held = producer.heldKeyframe(layer);
          if (!held) continue;
          const packets = held.packets.map((packet) => packet.serialize());
          worker.post({ t: 'heldKeyframe', id: producer.id, layer, packets, ageMs: held.ageMs });
        }
        users = new Set();
        feed.workers.set(worker, users);
      }
      users.add(transportId);
    }
  }

  /**
   * A transport in `worker` closed: a stream none of the worker's transports consumes any more stops going there
   * (the worker forgets it; a later student there has it described again, before its packets, as the first).
   */
  private unfeed(worker: WorkerHandle, transportId: string): void {
    for (const [id, feed] of [...this.feeds]) {
      const users = feed.workers.get(worker);
      if (!users?.delete(transportId) || users.size > 0) continue;
      feed.workers.delete(worker);
      worker.post({ t: 'streamClosed', id });
      if (feed.workers.size === 0) this.drop(id);
    }
  }

  private drop(id: string): void {
    this.feeds.get(id)?.release();
    this.feeds.delete(id);
  }

  private open(producer: Producer): Feed {
    const workers = new Map<WorkerHandle, Set<string>>();
    const id = producer.id;
    const releases = [
      producer.packet.subscribe((layer, packet, keyframe) => {
        const data = packet.serialize();
        const sentAt = wallClockMs();
        for (const worker of workers.keys()) worker.post({ t: 'rtp', id, layer, keyframe, data, sentAt });
      }),
      producer.closed.subscribe(() => {
        for (const worker of workers.keys()) worker.post({ t: 'streamClosed', id });
        this.drop(id);
      }),
    ];
    const feed = { producer, workers, release: () => releases.forEach((release) => release()) };
    this.feeds.set(id, feed);
    return feed;
  }

  private keyframe(streamId: string, layer: Layer): void {
    this.feeds.get(streamId)?.producer.requestKeyframe(layer);
  }

  /** A worker crashed: its students lost their connections (their clients rejoin); a new worker takes its place. */
  private replace(worker: WorkerHandle): void {
    for (const [id, feed] of [...this.feeds]) {
      if (feed.workers.delete(worker) && feed.workers.size === 0) this.drop(id);
    }
    const index = this.workers.indexOf(worker);
    if (index >= 0 && !this.isClosed) this.workers[index] = new WorkerHandle(this.rtc, this.hooks);
  }
}
