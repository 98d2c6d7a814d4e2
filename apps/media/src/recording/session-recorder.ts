import path from 'node:path';
import type { StreamKind } from '@sea/contract/live';
import { RECORDING_MANIFEST, type RecordingEvent } from '@sea/contract/recording';
import type { StreamSource } from '../rtc/stream-source.ts';
import { Signal } from '../signal.ts';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { RecordingFiles, type WriteFailure } from './recording-files.ts';
import { RecordingUpload } from './recording-upload.ts';
import { recordingCounts } from './recording-counts.ts';
import { StreamRecorder } from './stream-recorder.ts';
import { log } from '../log.ts';

/**
 * How often the session's one timer muxes the packets kept and writes what is ready: the most a killed process
 * can lose, and the whole cost of recording on the forwarding path is one array push per packet.
 */
export const RECORDING_FLUSH_MS = 250;

/** The longest the end of a session waits for its files' last bytes. */
const END_WAIT_MS = 2_000;

export type SessionRecorderOptions = {
  /** RECORDINGS_DIR: the session's folder is `{recordingsDir}/{sessionKey}`. */
  recordingsDir: string;
  sessionKey: string;
  classId: number;
  teacherNickname: string;
  startedAt: Date;
  /** `performance.now()` at the session's start (the manifest's `t` 0). */
  startMs?: number;
  flushMs?: number;
  /**
   * The object store (STORAGE=s3): the recording goes up while the lecture runs, and the session's folder is
   * removed once all of it is up ({@link RecordingUpload}).
   */
  store?: FileStore | null;
};

/**
 * Records one live session (see the contract's `recording.ts`): every stream the teacher publishes, each
 * continuous stretch in its own WebM file, and the manifest of when each started and stopped, paused and
 * resumed. Files and manifest are written by one timer per session, as the lecture goes.
 */
export class SessionRecorder {
  readonly dir: string;
  private readonly files: RecordingFiles;
  private readonly upload: RecordingUpload | null;
  private readonly streams = new Map<StreamRecorder, () => void>();
  private readonly fileCounts = new Map<StreamKind, number>();
  private readonly startMs: number;
  private readonly timer: NodeJS.Timeout;
  /** Files whose end (werift's last bytes and header patches) is on its way. */
  private readonly ending = new Set<Promise<void>>();
  private isPaused = false;
  private closing: Promise<void> | null = null;
  /** {@link stalled} changed. */
  readonly stallChanged = new Signal();

  constructor(options: SessionRecorderOptions) {
    this.dir = path.join(options.recordingsDir, options.sessionKey);
    this.startMs = options.startMs ?? performance.now();
    const where = { classId: options.classId, sessionKey: options.sessionKey };
    const { store, sessionKey } = options;
    const upload = store ? new RecordingUpload({ store, sessionKey, dir: this.dir, rounds: true }) : null;
    this.upload = upload;
    this.files = new RecordingFiles(this.dir, RECORDING_MANIFEST, {
      failed: (failure) => this.stall(failure, where),
      recovered: () => this.unstall(where),
      written: upload ? (name, size) => upload.written(name, size) : undefined,
      closed: upload ? (name, patches) => upload.ended(name, patches) : undefined,
    });
    this.event({
      type: 'session',
      t: 0,
      sessionKey: options.sessionKey,
      classId: options.classId,
      teacherNickname: options.teacherNickname,
      startedAt: options.startedAt.toISOString(),
    });
    this.timer = setInterval(() => void this.flush(), options.flushMs ?? RECORDING_FLUSH_MS);
    this.timer.unref();
    void this.files.flush();
  }

  /** Records a stream from now until it closes (or the session ends). */
  record(source: StreamSource): void {
    if (this.closing || source.isClosedNow) return;
    const stream = new StreamRecorder(source, {
      sessionMs: (at) => Math.max(0, Math.round(at - this.startMs)),
      nextFile: (kind) => {
        const n = (this.fileCounts.get(kind) ?? 0) + 1;
        this.fileCounts.set(kind, n);
        return { track: `${kind}-${n}`, file: `${kind}-${n}.webm` };
      },
      append: (file, bytes) => this.files.append(file, bytes),
      finish: (file, patches) => {
        const ended = patches.then((p) => {
          this.files.patch(file, p);
          this.files.finish(file);
        });
        this.ending.add(ended);
        void ended.finally(() => this.ending.delete(ended));
      },
      event: (event) => this.event(event),
    });
    if (this.isPaused || this.stalled) stream.stop();
    const unsubscribe = source.closed.subscribe(() => {
      stream.close();
      this.streams.delete(stream);
    });
    this.streams.set(stream, unsubscribe);
  }

  get paused(): boolean {
    return this.isPaused;
  }

  /** Whether the recording's files cannot be written now (a full or broken disk): nothing is recorded. */
  get stalled(): boolean {
    return this.files.unwritable;
  }

  /** Bytes held for the disk: bounded whatever the disk does (tests, the bound on memory). */
  get heldBytes(): number {
    return this.files.pendingBytes;
  }

  /** Pauses recording: every file ends now; nothing is written until {@link resume}. */
  pause(): void {
    if (this.isPaused || this.closing) return;
    this.isPaused = true;
    const now = performance.now();
    this.event({ type: 'pause', t: this.sessionMs(now) });
    for (const stream of this.streams.keys()) stream.stop(now);
  }

  /** Resumes recording: each stream starts a new file (video at its next keyframe, asked for at once). */
  resume(): void {
    if (!this.isPaused || this.closing) return;
    this.isPaused = false;
    this.event({ type: 'resume', t: this.sessionMs(performance.now()) });
    if (!this.stalled) for (const stream of this.streams.keys()) stream.restart();
  }

  /** The files cannot be written: every file ends now, the `gap` line waits for the disk. */
  private stall(failure: WriteFailure, where: object): void {
    recordingCounts.writeFailures += 1;
    log.error(
      { err: failure.error, reason: failure.reason, ...where },
      'recording stalled: cannot write its files',
    );
    if (this.closing) return;
    const now = performance.now();
    this.event({ type: 'gap', t: this.sessionMs(now), reason: failure.reason });
    for (const stream of this.streams.keys()) stream.stop(now);
    this.stallChanged.emit();
  }

  /** The files can be written again: each stream starts a new file, as after a pause. */
  private unstall(where: object): void {
    log.info(where, 'recording resumed: its files can be written again');
    if (this.closing) return;
    this.event({ type: 'gapEnd', t: this.sessionMs(performance.now()) });
    if (!this.isPaused) for (const stream of this.streams.keys()) stream.restart();
    this.stallChanged.emit();
  }

  /** Writes what the streams kept, then the files (the timer does this every {@link RECORDING_FLUSH_MS}). */
  flush(): Promise<void> {
    const now = performance.now();
    for (const stream of this.streams.keys()) stream.drain(now);
    return this.files.flush();
  }

  /**
   * Ends the session: every file ends, the `end` line; resolves once all of it is on disk, and in the store
   * when there is one (within {@link RecordingUpload.close}'s wait). Idempotent.
   */
  close(): Promise<void> {
    this.closing ??= this.finish();
    return this.closing;
  }

  private async finish(): Promise<void> {
    clearInterval(this.timer);
    const now = performance.now();
    for (const [stream, unsubscribe] of this.streams) {
      unsubscribe();
      stream.close(now);
    }
    this.streams.clear();
    this.event({ type: 'end', t: this.sessionMs(now) });
    // The files' last bytes and header patches come from werift's muxer a few microtasks later (bounded: a
    // muxer that never answers must not hold the shutdown).
    let timer: NodeJS.Timeout | undefined;
    await Promise.race([
      Promise.all(this.ending),
      new Promise((resolve) => (timer = setTimeout(resolve, END_WAIT_MS))),
    ]);
    clearTimeout(timer);
    await this.files.flush();
    await this.upload?.close();
  }

  private sessionMs(at: number): number {
    return Math.max(0, Math.round(at - this.startMs));
  }

  private event(event: RecordingEvent): void {
    this.files.append(RECORDING_MANIFEST, Buffer.from(`${JSON.stringify(event)}\n`));
  }
}
