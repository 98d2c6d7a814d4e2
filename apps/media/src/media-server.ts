import { randomUUID } from 'node:crypto';
import type { MediaClosedRoom, MediaRevocation, MediaRoom } from '@sea/contract/media-nodes';
import { ConsumerTransport } from './rtc/consumer-transport.ts';
import type { RtcOptions } from './rtc/peer-connection.ts';
import type { ReceivingTransport } from './rtc/receiving-transport.ts';
import { SessionRecorder } from './recording/session-recorder.ts';
import { Room } from './room.ts';
import { ForwardingPool } from './workers/forwarding-pool.ts';

/** Tells the API server about this node's rooms (the NodeReporter; tests use a recorder). Never throws. */
export type RoomReports = {
  /**
   * A room opened, or closed (`closed` then describes it): report the node's state now. Resolves once a
   * report made after this call was answered (true) or failed (false).
   */
  changed(closed?: MediaClosedRoom): Promise<boolean>;
};

export type MediaServerOptions = {
  rtc: RtcOptions;
  teacherGraceMs: number;
  reports: RoomReports;
  /** Forwarding worker threads for the students' connections; 0 keeps them in this thread. */
  workers?: number;
  /** RECORDINGS_DIR, where sessions are recorded; absent: nothing is recorded (tests that do not look). */
  recordingsDir?: string | null;
};

/** How a teacher's `startRoom` opens a room. */
export type OpenRoomOptions = {
  /** Record the session (default true) when the node records at all; only a new room takes it. */
  record?: boolean;
  /** Written into the recording (the replay shows it where no picture is). */
  teacherNickname?: string;
};

/**
 * The root of the ownership tree: one {@link Room} per live class. A room is dropped from the map when it
 * emits `closed`. Rooms opening and closing are reported to the API server as they happen.
 */
export class MediaServer {
  readonly options: MediaServerOptions;
  private readonly rooms = new Map<number, Room>();
  private readonly pool: ForwardingPool | null;
  private lastReport: Promise<boolean> = Promise.resolve(true);
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

  /** The room of a class, opened (and reported) if needed: only a teacher's `startRoom` does this. */
  openRoom(classId: number, options: OpenRoomOptions = {}): Room {
    const existing = this.rooms.get(classId);
    if (existing) return existing;
    const sessionKey = randomUUID();
    const startedAt = new Date();
    const { recordingsDir } = this.options;
    const recorder =
      recordingsDir && options.record !== false
        ? new SessionRecorder({
            recordingsDir,
            sessionKey,
            classId,
            teacherNickname: options.teacherNickname ?? '',
            startedAt,
          })
        : null;
    const room = new Room(classId, {
      sessionKey,
      teacherGraceMs: this.options.teacherGraceMs,
      startedAt,
      recorder,
    });
    this.rooms.set(classId, room);
    room.closed.subscribe(() => {
      if (this.rooms.get(classId) === room) this.rooms.delete(classId);
      const { students: _students, ...report } = roomReport(room);
      this.lastReport = this.options.reports.changed({ ...report, endedAt: new Date().toISOString() });
    });
    this.lastReport = this.options.reports.changed();
    return room;
  }

  /** Resolves when the latest room change has been reported (or the report failed). */
  reported(): Promise<boolean> {
    return this.lastReport;
  }

  /** The open rooms as the API server is told about them. */
  roomReports(): MediaRoom[] {
    return [...this.rooms.values()].map(roomReport);
  }

  /** Ends what the API server says must end: rooms of deleted classes or ended sessions, former students. */
  revoke(revocation: MediaRevocation): void {
    const classIds = new Set(revocation.classIds);
    const sessionKeys = new Set(revocation.sessionKeys);
    for (const room of [...this.rooms.values()]) {
      if (classIds.has(room.classId) || sessionKeys.has(room.sessionKey)) room.close('revoked');
    }
    for (const { userId, classId } of revocation.students) {
      if (classId === undefined) for (const room of this.rooms.values()) room.removeStudent(userId);
      else this.rooms.get(classId)?.removeStudent(userId);
    }
  }

  /** Number of open rooms. */
  get roomCount(): number {
    return this.rooms.size;
  }

  /**
   * Closes every room (each reported closed, its recording ended on disk), then stops the forwarding workers.
   * Idempotent.
   */
  async close(): Promise<void> {
    if (this.isClosed) return;
    this.isClosed = true;
    const rooms = [...this.rooms.values()];
    for (const room of rooms) room.close('shutdown');
    await Promise.all([...rooms.map((room) => room.recordingClosed()), this.pool?.close()]);
  }
}

function roomReport(room: Room): MediaRoom {
  return {
    classId: room.classId,
    sessionKey: room.sessionKey,
    startedAt: room.startedAt.toISOString(),
    recording: room.recording,
    students: room.studentIds(),
  };
}
