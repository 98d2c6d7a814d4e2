import type { RecordingState } from '@sea/contract/live';
import type { Producer } from '../rtc/producer.ts';
import type { Signal } from '../signal.ts';

/** Records a room's session (made by the media server when the session is recorded). */
export interface RoomRecorder {
  /** Records a stream from now until it closes. */
  record(producer: Producer): void;
  pause(): void;
  resume(): void;
  readonly paused: boolean;
  /** Its files cannot be written now: nothing is recorded until they can (then it resumes by itself). */
  readonly stalled: boolean;
  /** {@link stalled} changed. */
  readonly stallChanged: Signal;
  /** Bytes held in memory for the disk (bounded). */
  readonly heldBytes: number;
  /** Ends the recording; resolves once it is on disk. Idempotent. */
  close(): Promise<void>;
}

/**
 * A room's session as this node records it: when it started, and its recorder if it is recorded. A room pulled
 * from another node has none of its own until a teacher takes it over here ({@link takeOver}). Telling the
 * room's peers is the room's part: `changed` runs whenever {@link state} changed.
 */
export class RoomRecording {
  private started: Date;
  private recorder: RoomRecorder | null = null;
  private recorderClosed: Promise<void> = Promise.resolve();
  private readonly changed: () => void;
  private unsubscribe: () => void = () => undefined;
  /** An edge room's: the origin's state as its relay hears it (see {@link relay}). */
  private relayed: RecordingState | null = null;

  constructor(startedAt: Date, recorder: RoomRecorder | null, changed: () => void) {
    this.started = startedAt;
    this.changed = changed;
    this.use(recorder);
  }

  /** The session's start: the room's opening, or its takeover. */
  get startedAt(): Date {
    return this.started;
  }

  /** Whether the session is recorded (paused or not). */
  get recording(): boolean {
    return this.recorder !== null;
  }

  /** Whether the session is recorded, and whether the recording is paused now. */
  get state(): RecordingState {
    // An edge room records nothing itself: its students are told what the origin records.
    if (!this.recorder && this.relayed) return this.relayed;
    const state = { recording: this.recording, paused: this.recorder?.paused ?? false };
    // Said only while true: the usual state stays the two fields every client knows.
    return this.recorder?.stalled ? { ...state, stalled: true } : state;
  }

  /** Bytes the recording holds in memory for the disk (0 when not recorded). */
  get heldBytes(): number {
    return this.recorder?.heldBytes ?? 0;
  }

  /** Pauses or resumes the recording; false when the session is not recorded. */
  setPaused(paused: boolean): boolean {
    if (!this.recorder) return false;
    if (paused) this.recorder.pause();
    else this.recorder.resume();
    this.changed();
    return true;
  }

  /**
   * An edge room: the origin's recording state, as its relay heard it (null once the relay ended: nothing is
   * known to be recorded then). It is {@link state} until this node records the session itself (a takeover).
   */
  relay(state: RecordingState | null): void {
    this.relayed = state;
    if (!this.recorder) this.changed();
  }

  /** Records a teacher's stream, when the session is recorded. */
  record(producer: Producer): void {
    this.recorder?.record(producer);
  }

  /**
   * The room became this node's own session from `startedAt`, recorded by `recorder` (if any); false (and
   * nothing changes) when it is recorded already.
   */
  takeOver(startedAt: Date, recorder: RoomRecorder | null): boolean {
    if (this.recorder) return false;
    this.started = startedAt;
    this.use(recorder);
    this.changed();
    return true;
  }

  /** Ends the recording (see {@link closed}); call once, when the room ends. */
  close(): void {
    this.unsubscribe();
    if (this.recorder) this.recorderClosed = this.recorder.close();
  }

  private use(recorder: RoomRecorder | null): void {
    this.recorder = recorder;
    this.unsubscribe = recorder?.stallChanged.subscribe(() => this.changed()) ?? (() => undefined);
  }

  /** Resolves once the recording is on disk (after {@link close}; at once when there is none). */
  closed(): Promise<void> {
    return this.recorderClosed;
  }
}
