import type { ProducerInfo, RecordingState, StreamKind } from '@sea/contract/live';
import type { Logger } from 'pino';
import { conflict } from './live-error.ts';
import { log } from './log.ts';
import type { Peer, PeerCloseReason } from './peer.ts';
import type { Producer } from './rtc/producer.ts';
import { Signal } from './signal.ts';
import { SpeakerSeats } from './speaker-seats.ts';

/**
 * Why a room ended: its teacher left (or stayed away past the grace period), the server is shutting down, or
 * the API server revoked it (the class was deleted, or its session was ended there).
 */
export type RoomCloseReason = 'teacherLeft' | 'shutdown' | 'revoked';

/** Records a room's session (made by the media server when the session is recorded). */
export interface RoomRecorder {
  /** Records a stream from now until it closes. */
  record(producer: Producer): void;
  pause(): void;
  resume(): void;
  readonly paused: boolean;
  /** Ends the recording; resolves once it is on disk. Idempotent. */
  close(): Promise<void>;
}

export type RoomOptions = {
  /** The session's id: made when the room opens, reported to the API server, the recording's folder name. */
  sessionKey: string;
  /** How long a disconnected teacher may take to come back before the room ends. */
  teacherGraceMs: number;
  /** The session's start (default: now). */
  startedAt?: Date;
  /** The session's recorder; none: the session is not recorded. */
  recorder?: RoomRecorder | null;
};

/**
 * One live class: its teacher (at most one connection; a newer one replaces the older), its students, and the
 * streams the teacher publishes. The room opens when the teacher starts it and ends when the teacher leaves,
 * or stays disconnected past the grace period: then students get `teacherLeft` once and are closed.
 */
export class Room {
  readonly classId: number;
  /** This lecture's session id (see {@link RoomOptions.sessionKey}). */
  readonly sessionKey: string;
  /** When the room opened, or became this node's own session (a takeover): the session's start. */
  get startedAt(): Date {
    return this.started;
  }
  /** Emitted once when the room ends. */
  readonly closed = new Signal<[reason: RoomCloseReason]>();
  /** Emitted when a student joins or leaves (not when a student's newer connection replaces the older). */
  readonly studentsChanged = new Signal();
  private readonly options: RoomOptions;
  private readonly log: Logger;
  private teacher: Peer | null = null;
  /** Students by user id. */
  private readonly students = new Map<string, Peer>();
  /**
   * Edge nodes pulling this class (see relay/origin-pull.ts), with their own students' number: told of streams
   * and the end like students; their students count in the viewer count.
   */
  private readonly relays = new Map<Peer, number>();
  private readonly producers = new Map<StreamKind, Producer>();
  /** Students invited to speak or speaking, and their microphones (not relayed, not recorded). */
  readonly speaking: SpeakerSeats;
  private readonly releases = new Map<Peer, () => void>();
  private graceTimer: NodeJS.Timeout | null = null;
  private isClosed = false;
  private started: Date;
  private recorder: RoomRecorder | null;
  private recorderClosed: Promise<void> = Promise.resolve();

  constructor(classId: number, options: RoomOptions) {
    this.classId = classId;
    this.sessionKey = options.sessionKey;
    this.started = options.startedAt ?? new Date();
    this.recorder = options.recorder ?? null;
    this.options = options;
    this.log = log.child({ classId, sessionKey: options.sessionKey });
    this.speaking = new SpeakerSeats({
      changed: () => {
        if (!this.isClosed) this.broadcastSpeakers();
      },
      streamAdded: (producer, owner) => this.announceSpeakerStream('newProducer', producer, owner),
      streamClosed: (producer, owner) => this.announceSpeakerStream('producerClosed', producer, owner),
    });
    this.log.info('room opened');
  }

  /**
   * Whether this session is recorded (paused or not): reported to the API server with the room (a recorded
   * session gets a replay once it ends).
   */
  get recording(): boolean {
    return this.recorder !== null;
  }

  /** Whether the session is recorded, and whether the recording is paused now. */
  get recordingState(): RecordingState {
    return { recording: this.recording, paused: this.recorder?.paused ?? false };
  }

  /**
   * Pauses or resumes the recording (a session started without recording has none: false); everybody hears
   * the new `recordingState`.
   */
  setRecordingPaused(paused: boolean): boolean {
    if (!this.recorder || this.isClosed) return false;
    if (paused) this.recorder.pause();
    else this.recorder.resume();
    const state = this.recordingState;
    this.broadcast((peer) => peer.notify('recordingState', state));
    return true;
  }

  /** Resolves once the session's recording is on disk (after {@link close}). */
  recordingClosed(): Promise<void> {
    return this.recorderClosed;
  }

  /**
   * A teacher took this room over while it was pulled from another node (its origin died): it is a session of
   * this node's own from `startedAt`, recorded by `recorder` (if any) from the teacher's streams on, as a new
   * stretch of the class. Everybody hears the recording state.
   */
  becomeSession(startedAt: Date, recorder: RoomRecorder | null): void {
    if (this.isClosed || this.recorder) return;
    this.started = startedAt;
    this.recorder = recorder;
    const state = this.recordingState;
    this.broadcast((peer) => peer.notify('recordingState', state));
  }

  /** Makes `peer` the room's teacher, replacing (and closing) an earlier teacher connection. */
  startTeacher(peer: Peer): void {
    if (this.isClosed) return;
    this.cancelGrace();
    const previous = this.teacher;
    this.teacher = peer;
    previous?.close('replaced');
    const release = [
      peer.producerAdded.subscribe((producer) => this.addProducer(producer)),
      peer.closed.subscribe((reason) => this.teacherClosed(peer, reason)),
    ];
    this.releases.set(peer, () => release.forEach((unsubscribe) => unsubscribe()));
    peer.notify('viewerCount', { count: this.viewerCount() });
    peer.notify('recordingState', this.recordingState);
    peer.notify('speakerChanged', this.speaking.view(null));
  }

  /**
   * Adds a student (the caller has checked they may join). One peer per user: a newer connection of the same
   * student (a reconnection noticed here before the old one timed out, or a second tab) replaces the older one.
   */
  addStudent(peer: Peer): void {
    if (this.isClosed) return;
    const previous = this.students.get(peer.info.userId);
    this.students.set(peer.info.userId, peer);
    if (previous && previous !== peer) {
      this.releases.get(previous)?.();
      this.releases.delete(previous);
      // Speaking belongs to one connection: a newer one is invited again if the teacher wants.
      if (this.speaking.holds(previous)) this.speaking.end(previous.info.userId);
      previous.close('replaced');
    }
    const unsubscribe = peer.closed.subscribe(() => this.studentClosed(peer));
    this.releases.set(peer, unsubscribe);
    peer.notify('recordingState', this.recordingState);
    peer.notify('speakerChanged', this.speaking.view(peer.info.userId));
    this.broadcastViewerCount();
    if (previous === undefined) this.studentsChanged.emit();
  }

  /** Adds an edge node's relay: it hears the streams come and go and the room's end like a student. */
  addRelay(peer: Peer): void {
    if (this.isClosed) return;
    this.relays.set(peer, 0);
    const unsubscribe = peer.closed.subscribe(() => {
      this.releases.get(peer)?.();
      this.releases.delete(peer);
      if (this.relays.delete(peer) && !this.isClosed) this.broadcastViewerCount();
    });
    this.releases.set(peer, unsubscribe);
  }

  /** An edge's students in this class now (its relay says so as it changes). */
  setRelayViewers(peer: Peer, count: number): void {
    if (this.isClosed || this.relays.get(peer) === undefined || this.relays.get(peer) === count) return;
    this.relays.set(peer, count);
    this.broadcastViewerCount();
  }

  /** The streams currently published. */
  producerList(): ProducerInfo[] {
    return [...this.producers.values()].map((p) => ({ producerId: p.id, producerKind: p.kind }));
  }

  /** The teacher's current producers themselves (for students' transports and relays). */
  currentProducers(): Producer[] {
    return [...this.producers.values()];
  }

  /**
   * What `peer` receives: a student the teacher's streams and every other speaker's microphone, the teacher
   * the speakers' microphones. (Relays take {@link currentProducers}: speakers are not relayed to edges.)
   */
  sourcesFor(peer: Peer): Producer[] {
    if (peer === this.teacher) return this.speaking.streams();
    return [...this.producers.values(), ...this.speaking.streams(peer)];
  }

  /** Teacher: invites a student of this room to speak (see {@link SpeakerSeats.invite}). */
  inviteToSpeak(userId: string): void {
    const student = this.students.get(userId);
    if (!student || this.isClosed) throw conflict('그 수강생은 지금 이 강의실에 없어요.');
    this.speaking.invite(student);
  }

  /** Number of students. */
  get studentCount(): number {
    return this.students.size;
  }

  /** The students' user ids. */
  studentIds(): string[] {
    return [...this.students.keys()];
  }

  /** Ends a student's media here at once (they lost the class); their client is disconnected. */
  removeStudent(userId: string): boolean {
    const peer = this.students.get(userId);
    peer?.close('removed');
    return peer !== undefined;
  }

  /** Whether a teacher connection is present now. */
  get hasTeacher(): boolean {
    return this.teacher !== null;
  }

  get isClosedNow(): boolean {
    return this.isClosed;
  }

  /** Ends the room: `teacherLeft` to students (unless shutting down), every peer closed. Idempotent. */
  close(reason: RoomCloseReason): void {
    if (this.isClosed) return;
    this.isClosed = true;
    this.log.info({ reason, students: this.students.size }, 'room closed');
    this.cancelGrace();
    this.speaking.endAll(); // nobody is told: everybody is closed next
    if (this.recorder) this.recorderClosed = this.recorder.close();
    for (const release of this.releases.values()) release();
    this.releases.clear();
    const teacher = this.teacher;
    this.teacher = null;
    teacher?.close(reason === 'shutdown' ? 'shutdown' : 'roomClosed');
    for (const producer of this.producers.values()) producer.close();
    this.producers.clear();
    for (const student of [...this.students.values(), ...this.relays.keys()]) {
      if (reason !== 'shutdown') student.notify('teacherLeft', {});
      student.close(reason === 'shutdown' ? 'shutdown' : 'roomClosed');
    }
    this.students.clear();
    this.relays.clear();
    this.closed.emit(reason);
    this.closed.clear();
    this.studentsChanged.clear();
  }

  private addProducer(producer: Producer): void {
    const info = { producerId: producer.id, producerKind: producer.kind };
    this.producers.set(producer.kind, producer);
    this.recorder?.record(producer);
    producer.closed.subscribe(() => {
      if (this.producers.get(producer.kind) !== producer) return;
      this.producers.delete(producer.kind);
      if (!this.isClosed) this.broadcast((peer) => peer.notify('producerClosed', info));
    });
    this.broadcast((peer) => peer.notify('newProducer', info));
  }

  private teacherClosed(peer: Peer, reason: PeerCloseReason): void {
    this.releases.get(peer)?.();
    this.releases.delete(peer);
    if (this.teacher !== peer) return; // replaced: the newer connection is the teacher now
    this.teacher = null;
    if (reason === 'disconnected') this.startGrace();
    else this.close(reason === 'shutdown' ? 'shutdown' : 'teacherLeft');
  }

  private studentClosed(peer: Peer): void {
    this.releases.get(peer)?.();
    this.releases.delete(peer);
    if (this.students.get(peer.info.userId) !== peer) return; // replaced by a newer connection
    this.students.delete(peer.info.userId);
    if (this.speaking.holds(peer)) this.speaking.end(peer.info.userId);
    if (!this.isClosed) {
      this.broadcastViewerCount();
      this.studentsChanged.emit();
    }
  }

  private startGrace(): void {
    this.cancelGrace();
    this.graceTimer = setTimeout(() => {
      this.graceTimer = null;
      if (!this.teacher) this.close('teacherLeft');
    }, this.options.teacherGraceMs);
  }

  private cancelGrace(): void {
    if (this.graceTimer) clearTimeout(this.graceTimer);
    this.graceTimer = null;
  }

  /** Students here and on every edge pulling the class. */
  private viewerCount(): number {
    let count = this.students.size;
    for (const edgeStudents of this.relays.values()) count += edgeStudents;
    return count;
  }

  private broadcastViewerCount(): void {
    const count = this.viewerCount();
    this.broadcast((peer) => peer.notify('viewerCount', { count }));
  }

  private broadcastSpeakers(): void {
    if (this.teacher) this.teacher.notify('speakerChanged', this.speaking.view(null));
    for (const [userId, student] of this.students)
      student.notify('speakerChanged', this.speaking.view(userId));
  }

  /** A speaker's microphone came or went: the teacher and the other students hear it (relays do not). */
  private announceSpeakerStream(
    event: 'newProducer' | 'producerClosed',
    producer: Producer,
    owner: Peer,
  ): void {
    if (this.isClosed) return;
    const info = { producerId: producer.id, producerKind: producer.kind };
    this.teacher?.notify(event, info);
    for (const student of this.students.values()) if (student !== owner) student.notify(event, info);
  }

  private broadcast(send: (peer: Peer) => void): void {
    if (this.teacher) send(this.teacher);
    for (const student of this.students.values()) send(student);
    for (const relay of this.relays.keys()) send(relay);
  }
}
