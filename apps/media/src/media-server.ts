import { randomUUID } from 'node:crypto';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import type { MediaClosedRoom, MediaEdgeRoom, MediaRevocation, MediaRoom } from '@sea/contract/media-nodes';
import type { RtcOptions } from './rtc/peer-connection.ts';
import type { ReceivingTransport } from './rtc/receiving-transport.ts';
import type { SessionRecorder } from './recording/session-recorder.ts';
import type * as RoomCodeModule from './room-code.ts';
import type { Room } from './room/room.ts';
import { LazyModule } from './lazy-module.ts';
import { Signal } from './signal.ts';
import { ForwardingPool } from './workers/forwarding-pool.ts';

/** The rooms' code (`room-code.ts`), loaded with the first connection. */
export type RoomCode = typeof RoomCodeModule;

/** Tells the API server about this node's rooms (the NodeReporter; tests use a recorder). Never throws. */
export type RoomReports = {
  /**
   * A room opened, or closed (`closed` then describes it): report the node's state now. Resolves once a
   * report made after this call was answered (true) or failed (false).
   */
  changed(closed?: MediaClosedRoom): Promise<boolean>;
  /** Students joined or left a room: report soon (debounced; the API server keeps attendance from it). */
  studentsChanged?(): void;
};

export type MediaServerOptions = {
  rtc: RtcOptions;
  teacherGraceMs: number;
  reports: RoomReports;
  /** Forwarding worker threads for the students' connections; 0 keeps them in this thread. */
  workers?: number;
  /** The most students this node takes, over all its rooms (MEDIA_CAPACITY); unlimited when absent. */
  capacity?: number;
  /**
   * Starts pulling a class from its origin node into `room`, this node's edge room of the class (see
   * relay/origin-pull.ts); absent, this node is never an edge (one node, no REDIS_URL).
   */
  pullOrigin?: (room: Room, origin: string) => void;
  /** RECORDINGS_DIR, where sessions are recorded; absent: nothing is recorded (tests that do not look). */
  recordingsDir?: string | null;
  /** The object store's recordings (STORAGE=s3): each session goes up as it is recorded. */
  recordingStore?: FileStore | null;
};

/** How a teacher's `startRoom` opens a room. */
export type OpenRoomOptions = {
  /** Record the session (default true) when the node records at all; only a new room takes it. */
  record?: boolean;
  /** Written into the recording (the replay shows it where no picture is). */
  teacherNickname?: string;
  /**
   * The students the teacher's client saw invited or speaking before it lost the room: a new room keeps their
   * places (see Room.keepSpeakerPlaces); a room already open ignores them.
   */
  speakers?: readonly string[];
};

/**
 * The root of the ownership tree: one {@link Room} per live class. A room is dropped from the map when it
 * emits `closed`. Rooms opening and closing are reported to the API server as they happen.
 */
export class MediaServer {
  readonly options: MediaServerOptions;
  private readonly rooms = new Map<number, Room>();
  /** Classes whose room here is pulled from their origin node (this node is one of their edges). */
  private readonly edges = new Set<number>();
  /** Edge rooms a teacher took over (their origin died): reported as going on with the origin's session. */
  private readonly takenOver = new Set<Room>();
  /** Rooms opened or closed, students came or went: what the registry of nodes shows changed. */
  readonly changed = new Signal();
  private readonly pool: ForwardingPool | null;
  private readonly code = new LazyModule<RoomCode>(() => import('./room-code.ts'));
  private lastReport: Promise<boolean> = Promise.resolve(true);
  private isClosed = false;
  /**
   * Set before {@link close} when other nodes run (REDIS_URL): the rooms the close ends are reported handed
   * over, so their sessions go on in the rooms their teachers open on those nodes.
   */
  handover = false;

  constructor(options: MediaServerOptions) {
    this.options = options;
    const workers = options.workers ?? 0;
    this.pool = workers > 0 ? new ForwardingPool(workers, options.rtc) : null;
  }

  /**
   * Loads the rooms' code once (`room-code.ts`): signalling does it with a node's first connection, before its
   * first request; a room cannot open before. An idle node never loads it.
   */
  loadRooms(): Promise<RoomCode> {
    return this.code.load();
  }

  private loaded(): RoomCode {
    const code = this.code.loaded;
    if (!code) throw new Error("the rooms' code is not loaded (MediaServer.loadRooms)");
    return code;
  }

  /** A student's receiving transport: in the least loaded forwarding worker, or in this thread. */
  createReceivingTransport(): ReceivingTransport {
    return this.pool ? this.pool.createTransport() : new (this.loaded().ConsumerTransport)(this.options.rtc);
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
    if (existing && this.edges.delete(classId)) {
      // The teacher came here while this node pulled the class (its origin died): the room and its students
      // stay, the teacher replaces the relay, and the room is this node's own session from now on, recorded
      // like any: the origin's recording ends where the origin died, this one goes on from here.
      // The API server joins the two into one session (the room is reported `takenOver`), and the replay joins
      // the two recordings.
      const startedAt = new Date();
      existing.becomeSession(startedAt, this.recorder(existing.sessionKey, classId, startedAt, options));
      this.takenOver.add(existing);
      this.lastReport = this.options.reports.changed();
      this.changed.emit();
    }
    if (existing) return existing;
    const sessionKey = randomUUID();
    const startedAt = new Date();
    const recorder = this.recorder(sessionKey, classId, startedAt, options);
    const room = new (this.loaded().Room)(classId, {
      sessionKey,
      teacherGraceMs: this.options.teacherGraceMs,
      startedAt,
      recorder,
    });
    // The media service died with its seats (or the room moved here): the teacher's client names them again.
    if (options.speakers) room.keepSpeakerPlaces(options.speakers);
    this.keep(room);
    this.lastReport = this.options.reports.changed();
    this.changed.emit();
    return room;
  }

  /** The recorder of a new session, unless it is not to be recorded. */
  private recorder(
    sessionKey: string,
    classId: number,
    startedAt: Date,
    options: OpenRoomOptions,
  ): SessionRecorder | null {
    const { recordingsDir } = this.options;
    if (!recordingsDir || options.record === false) return null;
    return new (this.loaded().SessionRecorder)({
      recordingsDir,
      sessionKey,
      classId,
      teacherNickname: options.teacherNickname ?? '',
      startedAt,
      store: this.options.recordingStore ?? null,
    });
  }

  /**
   * This node's room of a class whose teacher is on another node (`origin`, its signalling URL), opened and
   * pulled from there if needed; null when this node does not relay. Such a room is not reported as a session
   * (the origin's is the session; its students are, see {@link edgeReports}) and not recorded until a teacher
   * takes it over; it ends when the origin's room ends.
   */
  openEdgeRoom(classId: number, origin: string): Room | null {
    const existing = this.rooms.get(classId);
    if (existing) return existing;
    const pullOrigin = this.options.pullOrigin;
    if (!pullOrigin || this.isClosed) return null;
    const room = new (this.loaded().Room)(classId, {
      sessionKey: randomUUID(),
      teacherGraceMs: this.options.teacherGraceMs,
    });
    this.edges.add(classId);
    this.keep(room);
    pullOrigin(room, origin);
    this.changed.emit();
    return room;
  }

  /** Whether this node's room of the class is pulled from another node. */
  isEdge(classId: number): boolean {
    return this.edges.has(classId);
  }

  /** The classes whose teacher is here, and those pulled from another node (for the registry of nodes). */
  classes(): { origins: number[]; edges: number[] } {
    const all = [...this.rooms.keys()];
    return {
      origins: all.filter((id) => !this.edges.has(id)),
      edges: all.filter((id) => this.edges.has(id)),
    };
  }

  /** Resolves when the latest room change has been reported (or the report failed). */
  reported(): Promise<boolean> {
    return this.lastReport;
  }

  /** The open rooms as the API server is told about them. */
  roomReports(): MediaRoom[] {
    return [...this.rooms.values()]
      .filter((room) => !this.edges.has(room.classId))
      .map((room) => this.roomReport(room));
  }

  /**
   * The classes pulled from another node, with this node's students in them: reported too, so that the API
   * server counts them in the class's attendance and checks they may still be there.
   */
  edgeReports(): MediaEdgeRoom[] {
    return [...this.rooms.values()]
      .filter((room) => this.edges.has(room.classId))
      .map((room) => ({ classId: room.classId, students: room.studentIds() }));
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

  /** Students connected to this node now, over all rooms: its load. */
  get studentCount(): number {
    let count = 0;
    for (const room of this.rooms.values()) count += room.studentCount;
    return count;
  }

  /**
   * Whether `userId` may enter `room` without passing the node's capacity: a student already there (a
   * reconnection that replaces the old connection) takes no new place.
   */
  hasRoomFor(userId: string, room: Room): boolean {
    const capacity = this.options.capacity ?? Infinity;
    return room.studentIds().includes(userId) || this.studentCount < capacity;
  }

  /** Number of open rooms. */
  get roomCount(): number {
    return this.rooms.size;
  }

  /**
   * Keeps a room until it closes; the close of a session of this node's own (not an edge's) is reported, as
   * handed over when this node's stop closed it and other nodes can go on with it.
   */
  private keep(room: Room): void {
    const { classId } = room;
    this.rooms.set(classId, room);
    // The forwarding threads start with the first room, before its students arrive (not at the service's start);
    // without them this thread offers to the students, its offer code compiled now rather than for the first.
    if (this.pool) this.pool.start();
    else if (this.rooms.size === 1) void this.loaded().warmUpOffers(this.options.rtc);
    room.studentsChanged.subscribe(() => this.options.reports.studentsChanged?.());
    room.closed.subscribe((reason) => {
      if (this.rooms.get(classId) === room) this.rooms.delete(classId);
      if (!this.edges.delete(classId)) {
        const { students: _students, ...report } = this.roomReport(room);
        const handover = reason === 'shutdown' && this.handover ? { handover: true } : {};
        this.lastReport = this.options.reports.changed({
          ...report,
          endedAt: new Date().toISOString(),
          ...handover,
        });
      }
      this.takenOver.delete(room);
      this.changed.emit();
    });
  }

  private roomReport(room: Room): MediaRoom {
    const report: MediaRoom = {
      classId: room.classId,
      sessionKey: room.sessionKey,
      startedAt: room.startedAt.toISOString(),
      recording: room.recording,
      students: room.studentIds(),
    };
    return this.takenOver.has(room) ? { ...report, takenOver: true } : report;
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
