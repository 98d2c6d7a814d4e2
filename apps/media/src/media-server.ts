import type { LiveStateClient } from './live-state-client.ts';
import type { RtcOptions } from './rtc/peer-connection.ts';
import { Room } from './room.ts';

export type MediaServerOptions = {
  rtc: RtcOptions;
  teacherGraceMs: number;
  liveState: LiveStateClient;
};

/**
 * The root of the ownership tree: one {@link Room} per live class. A room is dropped from the map when it
 * emits `closed`.
 */
export class MediaServer {
  readonly options: MediaServerOptions;
  private readonly rooms = new Map<number, Room>();
  private isClosed = false;

  constructor(options: MediaServerOptions) {
    this.options = options;
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

  /** Closes every room (classes are reported not live). Idempotent. */
  close(): void {
    if (this.isClosed) return;
    this.isClosed = true;
    for (const room of [...this.rooms.values()]) room.close('shutdown');
  }
}
