import { randomUUID } from 'node:crypto';
import type { LiveStateClient } from './live-state-client.ts';
import { ConsumerTransport } from './rtc/consumer-transport.ts';
import type { RtcOptions } from './rtc/peer-connection.ts';
import type { ReceivingTransport } from './rtc/receiving-transport.ts';
import { Room } from './room.ts';
import { ForwardingPool } from './workers/forwarding-pool.ts';

export type MediaServerOptions = {
  rtc: RtcOptions;
  teacherGraceMs: number;
  liveState: LiveStateClient;
  /** Forwarding worker threads for the students' connections; 0 keeps them in this thread. */
  workers?: number;
};

/**
 * The root of the ownership tree: one {@link Room} per live class. A room is dropped from the map when it
 * emits `closed`.
 */
export class MediaServer {
  readonly options: MediaServerOptions;
  private readonly rooms = new Map<number, Room>();
  private readonly pool: ForwardingPool | null;
  private isClosed = false;

  constructor(options: MediaServerOptions) {
    this.options = options;
    const workers = options.workers ?? 0;
    this.pool = workers > 0 ? new ForwardingPool(workers, options.rtc) : null;
  }

  /** A student's receiving transport: in the least loaded forwarding worker, or in this thread. */
  createReceivingTransport(): ReceivingTransport {
    return this.pool ? this.pool.createTransport() : new ConsumerTransport(this.options.rtc);
  }

  /** The forwarding workers, if any (tests, leak checks). */
  get forwarding(): ForwardingPool | null {
    return this.pool;
  }

  /** The open room of a class, if any. */
  room(classId: number): Room | undefined {
    return this.rooms.get(classId);
  }

  /** The room of a class, opened if needed (only a teacher's `startRoom` does this). */
  openRoom(classId: number): Room {
    const existing = this.rooms.get(classId);
    if (existing) return existing;
    const room = new Room(classId, {
      sessionKey: randomUUID(),
      teacherGraceMs: this.options.teacherGraceMs,
      setLive: (active) => this.options.liveState.setLive(classId, active),
    });
    this.rooms.set(classId, room);
    room.closed.subscribe(() => {
      if (this.rooms.get(classId) === room) this.rooms.delete(classId);
    });
    return room;
  }

  /** Number of open rooms. */
  get roomCount(): number {
    return this.rooms.size;
  }

  /** Closes every room (classes are reported not live), then stops the forwarding workers. Idempotent. */
  close(): Promise<void> {
    if (this.isClosed) return Promise.resolve();
    this.isClosed = true;
    for (const room of [...this.rooms.values()]) room.close('shutdown');
    return this.pool?.close() ?? Promise.resolve();
  }
}
