import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { liveSessions } from '../db/schema.ts';
import { type JobContext, type JobHandler, type JobLog, PermanentJobError } from '../jobs/job-worker.ts';
import { folderBytes } from '../storage/disk-space.ts';
import type { JobTuning } from '../tuning.ts';
import type { PageReader } from './board-pictures.ts';
import type { Ffmpeg } from './find-tools.ts';
import { damagedFiles, rawFolder, RECORDING_FILES_DAMAGED, ReplayError } from './recording-read.ts';
import { encodeReplay } from './replay-encode.ts';
import { toReplayMs } from './replay-timeline.ts';
import { backoffMs, environmentCause, REPLAY_REASONS, ReplayWait } from './replay-failure.ts';
import { REPLAY_FILES, removeReplayFiles, removeUnfinished, windowsDir } from './replay-files.ts';
import { type BoardReader, boardPictures, planRecording } from './replay-plan.ts';
import { expectedReplayBytes, spaceShortage } from './replay-space.ts';
import type { ReplayChapters } from './replay-chapters.ts';
import type { SpaceWaits } from './space-waits.ts';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { sessionRooms } from '../sessions/session-parts.ts';
import {
  type FetchedRecordings,
  localRawRecordings,
  type RawRecordings,
  RecordingUploading,
} from './raw-recordings.ts';

export { ReplayError } from './recording-read.ts';
export type { BoardReader } from './replay-plan.ts';

/** The queue's name for replay jobs. */
export const REPLAY_JOB = 'replay';
export const ReplayPayloadSchema = z.object({ sessionId: z.number().int().positive() });
export type ReplayPayload = z.infer<typeof ReplayPayloadSchema>;

export type ReplayDeps = {
  db: Database;
  recordingsDir: string;
  /** Where the raw recordings are read from: RECORDINGS_DIR unless given (the object store's, STORAGE=s3). */
  raw?: RawRecordings;
  /** Where finished replays are kept (the replays' store). */
  replays: FileStore;
  /** The local work folder of replays being made (`{id}.part-*`): the store itself with the local driver. */
  replaysDir: string;
  ffmpeg: Ffmpeg;
  fontFile: string | null;
  log: JobLog;
  /** ffmpeg's threads (null: its own choice). */
  threads?: number | null;
  /** The backoff and the watchdog's bounds. */
  tuning: Pick<JobTuning, 'retryDelayMs' | 'retryMaxMs' | 'stallMinMs' | 'stallMaxMs'>;
  /** Where a replay waiting for disk space says how much it needs (woken when the space comes back). */
  spaceWaits?: SpaceWaits;
  /** Writes the session's chapters into the replay being made (the MP4's chapter atoms, the WebVTT track). */
  chapters?: Pick<ReplayChapters, 'write'>;
  /**
   * The session's board (page changes and ink on the clock `toOffset` gives) and its pages' images: the MP4
   * shows the page on stage with its ink. Without it the picture is the screen share and webcam only.
   */
  board?: { read: BoardReader; pages: PageReader };
  /** Told once a replay is ready (its students hear of it). */
  onReady?: (ready: { classId: number; sessionId: number }) => Promise<void>;
  /** The replay's windows' length (`replay-windows.ts`; tests make it short). */
  windowMs?: number;
  /** The shortest wait between two rounds of the replay-ahead job (`replay-ahead.ts`). */
  aheadEveryMs?: number;
};

/** Shares of the progress bar: measuring the files, encoding, cutting HLS segments. */
const PROBED = 3;
const ENCODED = 95;
const SEGMENTED = 99;
const PROGRESS_INTERVAL_MS = 1_000;
/** Attempts a failure of no known cause gets (an environment failure gets the job's many attempts). */
const UNEXPLAINED_ATTEMPTS = 3;

/** What the dashboard shows when processing gave up for good without a known cause. */
export const REPLAY_FAILED =
  '다시보기를 만들지 못했어요. 원본 녹화는 남아 있어요. 다시 만들기로 다시 시도해 주세요.';

/**
 * Turns a session's raw recording into its replay: measures the files, checks the replays' disk has room,
 * plans the picture and the sound, encodes its windows (those made while the lecture ran are used:
 * replay-ahead.ts), joins them into one MP4 (H.264 + AAC, faststart) and remuxes it into HLS, all in a work
 * folder that replaces the replay folder only when complete and as long as recorded. On success the session is
 * `ready` with its duration and its gaps, and the raw recording and the windows are deleted; an attempt that
 * stops half-way leaves the raw recording and no replay. A failure of the machine (replay-failure.ts) is said on
 * the session and retried with backoff; only a damaged recording fails at once.
 */
export function replayJob(deps: ReplayDeps): JobHandler {
  return {
    run: (payload, context) => makeReplay(deps, parsePayload(payload), context),
    failed: async (payload, error) => {
      const parsed = ReplayPayloadSchema.safeParse(payload);
      if (!parsed.success) return;
      deps.spaceWaits?.done(parsed.data.sessionId);
      const told = error instanceof ReplayError || error instanceof ReplayWait;
      await deps.db
        .update(liveSessions)
        .set({ recordingState: 'failed', recordingError: told ? error.message : REPLAY_FAILED })
        .where(
          and(eq(liveSessions.id, parsed.data.sessionId), eq(liveSessions.recordingState, 'processing')),
        );
    },
  };
}

function parsePayload(payload: unknown): ReplayPayload {
  const parsed = ReplayPayloadSchema.safeParse(payload);
  if (!parsed.success) throw new PermanentJobError('invalid replay payload');
  return parsed.data;
}

async function makeReplay(
  deps: ReplayDeps,
  { sessionId }: ReplayPayload,
  context: JobContext,
): Promise<void> {
  const { db, ffmpeg, log, signal, tuning } = { ...deps, signal: context.signal };
  const [session] = await db
    .select({
      classId: liveSessions.classId,
      mediaKey: liveSessions.mediaKey,
      startedAt: liveSessions.startedAt,
      endedAt: liveSessions.endedAt,
      state: liveSessions.recordingState,
    })
    .from(liveSessions)
    .where(eq(liveSessions.id, sessionId));
  if (!session || session.state !== 'processing') {
    // Deleted, or already made by an attempt that died before marking its job done.
    log.info({ sessionId, state: session?.state ?? null }, 'replay not needed');
    return;
  }
  const progress = progressWriter(db, sessionId, context);
  await progress(0, true);
  const waitFor = waiting(deps, sessionId, context);
  const stallMs = () => tuning.stallMinMs;
  let neededBytes = 0;
  let released: () => Promise<void> = async () => undefined;
  try {
    await ffmpegRuns(ffmpeg.path);
    // The rooms the session was held in: one, or several when its origin died and it went on elsewhere.
    const rooms = await sessionRooms(db, { id: sessionId, ...session });
    const mediaKeys = rooms.map((room) => room.mediaKey);
    const raw = deps.raw ?? localRawRecordings(deps.recordingsDir);
    let fetched: FetchedRecordings;
    try {
      fetched = await raw.fetch(sessionId, mediaKeys, session.endedAt, context.attempt);
    } catch (error) {
      if (!(error instanceof RecordingUploading)) throw error;
      throw await waitFor(
        'uploading',
        REPLAY_REASONS.uploading,
        { retryInMs: error.retryInMs },
        error.retryInMs,
      );
    }
    released = fetched.release;
    const recordingsDir = fetched.dir;
    const rawDirs = rooms.map((room) => rawFolder(recordingsDir, room.mediaKey));
    const source = { recordingsDir, ffmpegPath: ffmpeg.path, log, signal, stallMs };
    const { joined, gaps, plan } = await planRecording(source, rooms);
    const recording = joined.recording;
    if (recording.skippedLines > 0 || plan.skipped.length > 0 || gaps.length > 0) {
      log.warn(
        { sessionId, skippedLines: recording.skippedLines, skippedFiles: plan.skipped, gaps },
        'recording incomplete',
      );
    }
    await progress(PROBED, true);
    const removeRaw = () => raw.remove(mediaKeys);

    if (plan.screens.length + plan.webcams.length + plan.audio.length === 0 || plan.durationMs <= 0) {
      const damaged = await damagedFiles(recordingsDir, joined.probes);
      if (damaged.length > 0) {
        log.error({ sessionId, damaged }, 'recording damaged: no file of it can be read');
        throw new ReplayError(RECORDING_FILES_DAMAGED);
      }
      // Nothing was published: there is no replay to make.
      await finish(deps, sessionId, { recordingState: 'none', recordingProgress: 0, replayDurationMs: null });
      await removeRaw();
      await fs.rm(windowsDir(deps.replaysDir, sessionId), { recursive: true, force: true });
      return;
    }

    const rawBytes = (await Promise.all(rawDirs.map((dir) => folderBytes(dir)))).reduce((a, b) => a + b, 0);
    neededBytes = expectedReplayBytes(plan.durationMs, rawBytes);
    const shortage = await spaceShortage(deps.replaysDir, neededBytes);
    if (shortage) throw await waitFor('space', REPLAY_REASONS.space(shortage), { ...shortage, rawBytes });
    deps.spaceWaits?.done(sessionId);
    await db.update(liveSessions).set({ recordingError: null }).where(eq(liveSessions.id, sessionId));

    await fs.mkdir(deps.replaysDir, { recursive: true });
    await removeUnfinished(deps.replaysDir, sessionId);
    const work = path.join(deps.replaysDir, `${sessionId}.part-${randomUUID().slice(0, 8)}`);
    try {
      await fs.mkdir(path.join(work, REPLAY_FILES.hlsDir), { recursive: true });
      const windows = windowsDir(deps.replaysDir, sessionId);
      const board = await boardPictures(
        deps.board,
        { sessionId, startedAt: session.startedAt },
        plan,
        windows,
        {
          signal,
          log,
        },
      );
      await encodeReplay(board?.plan ?? plan, work, {
        board: board?.pictures ?? null,
        windowsDir: windows,
        windowMs: deps.windowMs,
        ffmpegPath: ffmpeg.path,
        inputDir: recordingsDir,
        fontFile: deps.fontFile,
        threads: deps.threads ?? null,
        signal,
        stallMinMs: tuning.stallMinMs,
        stallMaxMs: tuning.stallMaxMs,
        onShare: (share) => {
          progress(PROBED + (ENCODED - PROBED) * share).catch((error: unknown) =>
            log.warn({ sessionId, err: error }, 'writing replay progress failed'),
          );
        },
        onEncoded: () => progress(ENCODED, true),
      });
      await deps.chapters?.write(work, { id: sessionId, ...session }, plan.timeline, { signal, fresh: true });
      await progress(SEGMENTED, true);
      // Into the store whole (the local driver renames the folder; an object store takes every file).
      await deps.replays.putFolder(String(sessionId), work);
    } catch (error) {
      // The cause is read before the partial output goes (a full disk shows by its free space).
      const cause = signal.aborted
        ? null
        : await environmentCause(error, { replaysDir: deps.replaysDir, neededBytes });
      await fs.rm(work, { recursive: true, force: true }).catch(() => undefined);
      if (cause) throw await waitFor(cause.cause, cause.message, cause.details);
      throw error;
    }
    const ready = await finish(deps, sessionId, {
      recordingState: 'ready',
      recordingProgress: 100,
      replayDurationMs: plan.durationMs,
      recordingGaps: gaps.map((gap) => ({ ...gap, atMs: toReplayMs(plan.timeline, gap.fromMs) })),
    });
    if (!ready) {
      // The session went away while its replay was made: its files go too.
      await removeReplayFiles(deps.replays, deps.replaysDir, sessionId);
      return;
    }
    // The replay holds everything the raw recording had, checked; keeping both would double a lecture's disk.
    await removeRaw();
    await fs.rm(windowsDir(deps.replaysDir, sessionId), { recursive: true, force: true });
    log.info({ sessionId, durationMs: plan.durationMs, gaps: gaps.length }, 'replay ready');
    await deps.onReady?.({ classId: session.classId, sessionId });
  } catch (error) {
    if (signal.aborted || error instanceof ReplayWait || error instanceof PermanentJobError) throw error;
    const cause = await environmentCause(error, { replaysDir: deps.replaysDir, neededBytes });
    if (cause) throw await waitFor(cause.cause, cause.message, cause.details);
    log.warn({ sessionId, attempt: context.attempt, err: error }, 'replay attempt failed');
    if (context.attempt >= UNEXPLAINED_ATTEMPTS) throw new ReplayError(REPLAY_FAILED);
    throw error;
  } finally {
    await released().catch((error: unknown) =>
      log.warn({ sessionId, err: error }, 'removing the downloaded recording failed'),
    );
  }
}

/** Fails with ENOENT (syscall `spawn`) when the ffmpeg found at start is gone or no longer runs. */
async function ffmpegRuns(ffmpegPath: string): Promise<void> {
  try {
    await fs.access(ffmpegPath, fs.constants.X_OK);
  } catch (error) {
    throw Object.assign(new Error(`ffmpeg cannot be run: ${ffmpegPath}`), {
      code: (error as NodeJS.ErrnoException).code ?? 'ENOENT',
      syscall: 'spawn',
    });
  }
}

/**
 * Makes the error of an environment failure: says the reason on the session (it stays `processing`), logs the
 * numbers, and for the disk asks to be woken when the space comes back.
 */
function waiting(deps: ReplayDeps, sessionId: number, context: JobContext) {
  return async (
    cause: ReplayWait['reason'],
    message: string,
    details: Record<string, unknown>,
    retryInMs?: number,
  ) => {
    const { retryDelayMs, retryMaxMs } = deps.tuning;
    const delayMs = retryInMs ?? backoffMs(context.attempt, retryDelayMs, retryMaxMs);
    deps.log.warn(
      { sessionId, cause, attempt: context.attempt, retryInMs: delayMs, ...details },
      `replay waits: ${cause}`,
    );
    const neededBytes = Number(details['neededBytes'] ?? 0);
    if ((cause === 'space' || cause === 'disk-full') && neededBytes > 0)
      deps.spaceWaits?.waiting(sessionId, neededBytes);
    await deps.db
      .update(liveSessions)
      .set({ recordingError: message })
      .where(and(eq(liveSessions.id, sessionId), eq(liveSessions.recordingState, 'processing')));
    return new ReplayWait(cause, message, delayMs, details);
  };
}

/** Sets the session's outcome if it is still waiting for its replay; false when it is not (deleted, changed). */
async function finish(
  deps: ReplayDeps,
  sessionId: number,
  outcome: {
    recordingState: 'ready' | 'none';
    recordingProgress: number;
    replayDurationMs: number | null;
    recordingGaps?: { fromMs: number; untilMs: number; atMs: number }[];
  },
): Promise<boolean> {
  const updated = await deps.db
    .update(liveSessions)
    .set({ ...outcome, recordingError: null })
    .where(and(eq(liveSessions.id, sessionId), eq(liveSessions.recordingState, 'processing')))
    .returning({ id: liveSessions.id });
  return updated.length > 0;
}

/** Writes the progress to the session (for the dashboard) and the job at most once a second, whole percents. */
function progressWriter(db: Database, sessionId: number, context: JobContext) {
  let written = -1;
  let writtenAt = 0;
  return async (percent: number, force = false) => {
    const value = Math.max(0, Math.min(99, Math.floor(percent)));
    if (value === written || (!force && Date.now() - writtenAt < PROGRESS_INTERVAL_MS)) return;
    written = value;
    writtenAt = Date.now();
    await db.update(liveSessions).set({ recordingProgress: value }).where(eq(liveSessions.id, sessionId));
    await context.progress(value);
  };
}
