import {
  SPEAKER_KIND,
  STEP_OUT_MS,
  type ProducerInfo,
  type RecordingState,
  type SpeakingView,
} from '@sea/contract/live';
import type { Logger } from 'pino';
import { log } from '../log.ts';
import type { Peer, PeerCloseReason } from '../peer.ts';
import type { Producer } from '../rtc/producer.ts';
import { Signal } from '../signal.ts';
import { tellEdgeStudents, type EdgeStudentsTold } from './edge-students.ts';
import { RoomAudience } from './room-audience.ts';
import { RoomRecording, type RoomRecorder } from './room-recording.ts';
import { RoomSpeaking } from './room-speaking.ts';
import type { SpeakerSeats } from './speaker-seats.ts';
import { TeacherGrace } from './teacher-grace.ts';
import { TeacherStreams } from './teacher-streams.ts';

/**
 * Why a room ended: its teacher left (or stayed away past the grace period), the server is shutting down, or
 * the API server revoked it (the class was deleted, or its session was ended there).
 */
export type RoomCloseReason = 'teacherLeft' | 'shutdown' | 'revoked';

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
  /** Emitted once when the room ends. */
  readonly closed = new Signal<[reason: RoomCloseReason]>();
  /** Emitted when a student joins or leaves (not when a student's newer connection replaces the older). */
  readonly studentsChanged = new Signal();
  /** Students invited to speak or speaking, and their microphones (relayed to edges, not recorded). */
  readonly speaking: SpeakerSeats;
  /** The seats wired to the audience, and on an edge room the origin's speakers (see {@link relaySpeaking}). */
  private readonly roomSpeaking: RoomSpeaking;
  private readonly log: Logger;
  private readonly audience = new RoomAudience();
  private readonly sessionRecording: RoomRecording;
  private readonly streams: TeacherStreams;
  private readonly grace: TeacherGrace;
  /** The teacher said they step out ({@link stepOut}) since their connection started. */
  private steppedOut = false;
  private isClosed = false;

  constructor(classId: number, options: RoomOptions) {
    this.classId = classId;
    this.sessionKey = options.sessionKey;
    const { startedAt = new Date(), recorder = null } = options;
    this.sessionRecording = new RoomRecording(startedAt, recorder, () => this.tellRecordingState());
    this.grace = new TeacherGrace(options.teacherGraceMs, () => {
      if (!this.audience.teacher) this.close('teacherLeft');
    });
    this.log = log.child({ classId, sessionKey: options.sessionKey });
    this.roomSpeaking = new RoomSpeaking(this.audience, () => this.isClosed);
    this.speaking = this.roomSpeaking.seats;
    this.streams = new TeacherStreams({
      published: (producer) => this.sessionRecording.record(producer),
      closed: (info) => {
        if (!this.isClosed) this.audience.broadcast((peer) => peer.notify('producerClosed', info));
      },
    });
    this.log.info('room opened');
  }

  /** When the room opened, or became this node's own session (a takeover): the session's start. */
  get startedAt(): Date {
    return this.sessionRecording.startedAt;
  }

  /** Whether this session is recorded: reported to the API server (a recorded session gets a replay). */
  get recording(): boolean {
    return this.sessionRecording.recording;
  }

  /** Whether the session is recorded, and whether the recording is paused now. */
  get recordingState(): RecordingState {
    return this.sessionRecording.state;
  }

  /** Bytes the recording holds in memory for the disk. */
  get recordingHeldBytes(): number {
    return this.sessionRecording.heldBytes;
  }

  /** Pauses or resumes the recording (none: false); everybody hears the new `recordingState`. */
  setRecordingPaused(paused: boolean): boolean {
    return !this.isClosed && this.sessionRecording.setPaused(paused);
  }

  /** Resolves once the session's recording is on disk (after {@link close}). */
  recordingClosed(): Promise<void> {
    return this.sessionRecording.closed();
  }

  /**
   * A teacher took this room over while it was pulled from another node (its origin died): it is a session of
   * this node's own from `startedAt`, recorded by `recorder` (if any) from the teacher's streams on, as a new
   * stretch of the class. Everybody hears the recording state.
   */
  becomeSession(startedAt: Date, recorder: RoomRecorder | null): void {
    if (!this.isClosed) this.sessionRecording.takeOver(startedAt, recorder);
  }

  /**
   * The teacher steps out ('잠시 나가기'): when their connection closes next, even on purpose, the room waits
   * STEP_OUT_MS for them instead of ending.
   */
  stepOut(): void {
    this.steppedOut = true;
  }

  /** Makes `peer` the room's teacher, replacing (and closing) an earlier teacher connection. */
  startTeacher(peer: Peer): void {
    if (this.isClosed) return;
    this.grace.cancel();
    this.steppedOut = false;
    const previous = this.audience.teacher;
    this.audience.teacher = peer;
    previous?.close('replaced');
    this.audience.listen(
      peer,
      peer.producerAdded.subscribe((producer) => this.addProducer(producer)),
      peer.closed.subscribe((reason) => this.teacherClosed(peer, reason)),
    );
    peer.notify('viewerCount', { count: this.audience.viewerCount() });
    this.audience.tellParticipants();
    peer.notify('recordingState', this.recordingState);
    peer.notify('speakerChanged', this.speakingView(null));
  }

  /**
   * Adds a student (the caller has checked they may join). One peer per user: a newer connection of the same
   * student (a reconnection noticed here before the old one timed out, or a second tab) replaces the older one.
   */
  addStudent(peer: Peer): void {
    if (this.isClosed) return;
    const students = this.audience.students;
    const previous = students.get(peer.info.userId);
    students.set(peer.info.userId, peer);
    if (previous && previous !== peer) {
      this.audience.release(previous);
      // Speaking belongs to one connection: the newer one (a reconnection) is invited again below.
      this.roomSpeaking.endForReturn(previous);
      previous.close('replaced');
    }
    const unsubscribe = peer.closed.subscribe((reason) => this.studentClosed(peer, reason));
    this.audience.listen(peer, unsubscribe);
    peer.notify('recordingState', this.recordingState);
    peer.notify('speakerChanged', this.speakingView(peer.info.userId));
    this.roomSpeaking.welcomeBack(peer);
    this.audience.broadcastViewerCount();
    if (previous === undefined) this.studentsChanged.emit();
  }

  /**
   * Adds an edge node's relay: it hears the streams come and go, the recording state and the room's end like a
   * student.
   */
  addRelay(peer: Peer): void {
    if (this.isClosed) return;
    const relays = this.audience.relays;
    relays.set(peer, { count: 0, userIds: new Set(), nicknames: new Map() });
    const unsubscribe = peer.closed.subscribe(() => {
      this.audience.release(peer);
      this.speaking.endThrough(peer); // its edge's students' seats: nobody publishes for them any more
      if (relays.delete(peer) && !this.isClosed) this.audience.broadcastViewerCount();
    });
    this.audience.listen(peer, unsubscribe);
    // The edge tells its students whether the lecture is recorded, as this room tells its own.
    peer.notify('recordingState', this.recordingState);
    peer.notify('speakerChanged', this.speakingView(null));
  }

  /** An edge's students in this class now (its relay says so as it changes), with ids and nicknames if told. */
  setRelayViewers(peer: Peer, now: EdgeStudentsTold): void {
    if (this.isClosed || !this.audience.relays.has(peer)) return;
    // The same number may be other students: the teacher's participant list changes all the same.
    if (tellEdgeStudents(this.audience, peer, this.speaking, now)) this.audience.broadcastViewerCount();
    else this.audience.tellParticipants();
  }

  /** The streams currently published. */
  producerList(): ProducerInfo[] {
    return this.streams.list();
  }

  /** The teacher's current producers themselves (for students' transports and relays). */
  currentProducers(): Producer[] {
    return this.streams.current();
  }

  /**
   * What `peer` receives: a student the teacher's streams and every other speaker's microphone (on an edge,
   * the relayed ones), the teacher the speakers' microphones. (A relay takes {@link currentProducers} and
   * every speaker's, its webcam layered: consumer-handlers.ts.)
   */
  sourcesFor(peer: Peer): Producer[] {
    const speakers = this.roomSpeaking.streamsFor(peer);
    return peer === this.audience.teacher ? speakers : [...this.streams.current(), ...speakers];
  }

  /** Who is invited or speaking, as the student `userId` (the teacher, a relay: null) sees it. */
  speakingView(userId: string | null): SpeakingView {
    return this.roomSpeaking.view(userId);
  }

  /**
   * An edge room: who speaks in the origin's room (its producer ids this room's), or null once the relay
   * ended; everybody here hears it. This room's own seats are its students the origin seated through the
   * relay (relay/edge-speakers.ts).
   */
  relaySpeaking(view: SpeakingView | null): void {
    this.roomSpeaking.relay(view);
  }

  /**
   * An edge room: whether the origin records the session (and pauses, or is stalled), or null once the relay
   * ended; everybody here hears it, as the origin's students do.
   */
  relayRecording(state: RecordingState | null): void {
    if (!this.isClosed) this.sessionRecording.relay(state);
  }

  /** Teacher: invites a student of this room, or of an edge pulling it, to speak (see {@link SpeakerSeats}). */
  inviteToSpeak(userId: string): void {
    this.roomSpeaking.invite(userId);
  }

  /**
   * A new room: keeps the places of the students the teacher's client saw invited or speaking in the room that
   * was lost, each invited again on entering within SPEAKER_RETURN_MS (see RoomSpeaking.keepPlaces).
   */
  keepSpeakerPlaces(userIds: readonly string[]): void {
    this.roomSpeaking.keepPlaces(userIds);
  }

  /** Number of students. */
  get studentCount(): number {
    return this.audience.students.size;
  }

  /** The students' user ids. */
  studentIds(): string[] {
    return [...this.audience.students.keys()];
  }

  /** The student's peer here, if any. */
  student(userId: string): Peer | undefined {
    return this.audience.students.get(userId);
  }

  /** Ends a student's media here at once (they lost the class); their client is disconnected. */
  removeStudent(userId: string): boolean {
    const peer = this.audience.students.get(userId);
    peer?.close('removed');
    return peer !== undefined;
  }

  /** Whether a teacher connection is present now. */
  get hasTeacher(): boolean {
    return this.audience.teacher !== null;
  }

  get isClosedNow(): boolean {
    return this.isClosed;
  }

  /** Ends the room: `teacherLeft` to students (unless shutting down), every peer closed. Idempotent. */
  close(reason: RoomCloseReason): void {
    if (this.isClosed) return;
    this.isClosed = true;
    const { students, relays } = this.audience;
    this.log.info({ reason, students: students.size }, 'room closed');
    this.grace.cancel();
    this.speaking.endAll(); // nobody is told: everybody is closed next
    this.sessionRecording.close();
    this.audience.releaseAll();
    const teacher = this.audience.teacher;
    this.audience.teacher = null;
    teacher?.close(reason === 'shutdown' ? 'shutdown' : 'roomClosed');
    this.streams.closeAll();
    for (const student of [...students.values(), ...relays.keys()]) {
      if (reason !== 'shutdown') student.notify('teacherLeft', {});
      student.close(reason === 'shutdown' ? 'shutdown' : 'roomClosed');
    }
    students.clear();
    relays.clear();
    this.closed.emit(reason);
    this.closed.clear();
    this.studentsChanged.clear();
  }

  private tellRecordingState(): void {
    const state = this.recordingState;
    this.audience.broadcast((peer) => peer.notify('recordingState', state));
  }

  private addProducer(producer: Producer): void {
    // Only an edge's relay publishes a microphone as the teacher (produce refuses it from a teacher).
    if (producer.kind === SPEAKER_KIND) {
      this.roomSpeaking.addRelayed(producer);
      return;
    }
    const info = this.streams.add(producer);
    this.audience.broadcast((peer) => peer.notify('newProducer', info));
  }

  private teacherClosed(peer: Peer, reason: PeerCloseReason): void {
    this.audience.release(peer);
    if (this.audience.teacher !== peer) return; // replaced: the newer connection is the teacher now
    this.audience.teacher = null;
    if (reason === 'disconnected') this.grace.start(this.steppedOut ? STEP_OUT_MS : 0);
    else if (reason === 'left' && this.steppedOut) this.grace.start(STEP_OUT_MS);
    else this.close(reason === 'shutdown' ? 'shutdown' : 'teacherLeft');
  }

  private studentClosed(peer: Peer, reason: PeerCloseReason): void {
    this.audience.release(peer);
    const students = this.audience.students;
    if (students.get(peer.info.userId) !== peer) return; // replaced by a newer connection
    students.delete(peer.info.userId);
    // A lost connection keeps the student's place to speak for their return; leaving gives it up.
    if (reason === 'disconnected' || reason === 'mediaLost') this.roomSpeaking.endForReturn(peer);
    else if (this.speaking.holds(peer)) this.speaking.end(peer.info.userId);
    if (!this.isClosed) {
      this.audience.broadcastViewerCount();
      this.studentsChanged.emit();
    }
  }
}
