import { randomUUID } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { mediaKindOf } from '@sea/contract/live';
import { and, eq } from 'drizzle-orm';
import { z } from 'zod';
import type { Database } from '../db/database.ts';
import { liveSessions } from '../db/schema.ts';
import { type JobContext, type JobHandler, type JobLog, PermanentJobError } from '../jobs/job-worker.ts';
import { type MediaProbe, planComposition } from './composition-plan.ts';
import { encodeArgs, hlsArgs } from './ffmpeg-args.ts';
import type { Ffmpeg } from './find-tools.ts';
import { probeMedia } from './probe-media.ts';
import { ManifestError, parseManifest, type Recording } from './recording-manifest.ts';
import { joinParts, type RecordingPart } from './recording-parts.ts';
import { sessionRooms, type SessionPart } from '../sessions/session-parts.ts';
import {
  recordingDir,
  REPLAY_FILES,
  removeReplayFiles,
  removeUnfinished,
  replayDir,
} from './replay-files.ts';
import { progressReader, runFfmpeg } from './run-ffmpeg.ts';
import { RECORDING_MANIFEST } from '@sea/contract/recording';

/** The queue's name for replay jobs. */
export const REPLAY_JOB = 'replay';
export const ReplayPayloadSchema = z.object({ sessionId: z.number().int().positive() });
export type ReplayPayload = z.infer<typeof ReplayPayloadSchema>;

export type ReplayDeps = {
  db: Database;
  recordingsDir: string;
  replaysDir: string;
  ffmpeg: Ffmpeg;
  fontFile: string | null;
  log: JobLog;
  /** ffmpeg's threads (null: its own choice). */
  threads?: number | null;
};

/** Shares of the progress bar: measuring the files, encoding, cutting HLS segments. */
const PROBED = 3;
const ENCODED = 95;
const SEGMENTED = 99;
const PROGRESS_INTERVAL_MS = 1_000;

/** What the dashboard shows when processing gave up for good. */
export const REPLAY_FAILED = '다시보기를 만들지 못했어요. 녹화 파일이 손상되었을 수 있어요.';
export const RECORDING_MISSING = '녹화 파일을 찾을 수 없어 다시보기를 만들 수 없어요.';
export const RECORDING_DAMAGED = '녹화 정보가 손상되어 다시보기를 만들 수 없어요.';

/**
 * Turns a session's raw recording into its replay: measures the files, plans the picture and the sound,
 * encodes one MP4 (H.264 + AAC, faststart) and remuxes it into HLS, all in a work folder that replaces the
 * replay folder only when complete. On success the session is `ready` with its duration and the raw recording
 * is deleted; an attempt that stops half-way leaves the raw recording and no replay.
 */
export function replayJob(deps: ReplayDeps): JobHandler {
  return {
    run: (payload, context) => makeReplay(deps, parsePayload(payload), context),
    failed: async (payload, error) => {
      const parsed = ReplayPayloadSchema.safeParse(payload);
      if (!parsed.success) return;
      const reason = error instanceof ReplayError ? error.message : REPLAY_FAILED;
      await deps.db
        .update(liveSessions)
        .set({ recordingState: 'failed', recordingError: reason })
        .where(
          and(eq(liveSessions.id, parsed.data.sessionId), eq(liveSessions.recordingState, 'processing')),
        );
    },
  };
}

/** A failure with a reason for the teacher; never retried. */
export class ReplayError extends PermanentJobError {}

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
  const { db, ffmpeg, log, signal } = { ...deps, signal: context.signal };
  const [session] = await db
    .select({
      mediaKey: liveSessions.mediaKey,
      startedAt: liveSessions.startedAt,
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
  await db
    .update(liveSessions)
    .set({ recordingProgress: 0, recordingError: null })
    .where(eq(liveSessions.id, sessionId));

  // The rooms the session was held in: one, or several when its origin died and it went on elsewhere.
  const rooms = await sessionRooms(db, { id: sessionId, ...session });
  const rawDirs = rooms.map((room) => rawFolder(deps.recordingsDir, room.mediaKey));
  const removeRaw = () => Promise.all(rawDirs.map((dir) => fs.rm(dir, { recursive: true, force: true })));
  const parts = await readParts(deps, rooms, signal);
  const { recording, probes } = joinParts(parts);
  const plan = planComposition(recording, probes);
  if (recording.skippedLines > 0 || plan.skipped.length > 0) {
    log.warn(
      { sessionId, skippedLines: recording.skippedLines, skippedFiles: plan.skipped },
      'recording damaged',
    );
  }
  await progress(PROBED, true);

  if (plan.screens.length + plan.webcams.length + plan.audio.length === 0 || plan.durationMs <= 0) {
    // Nothing was published (or nothing of it is readable): there is no replay to make.
    await finish(deps, sessionId, { recordingState: 'none', recordingProgress: 0, replayDurationMs: null });
    await removeRaw();
    return;
  }

  await fs.mkdir(deps.replaysDir, { recursive: true });
  await removeUnfinished(deps.replaysDir, sessionId);
  const work = path.join(deps.replaysDir, `${sessionId}.part-${randomUUID().slice(0, 8)}`);
  await fs.mkdir(path.join(work, REPLAY_FILES.hlsDir), { recursive: true });
  try {
    const nameFile = path.join(work, 'name.txt');
    await fs.writeFile(nameFile, plan.teacherNickname);
    const mp4 = path.join(work, REPLAY_FILES.mp4);
    const { fontFile, threads } = deps;
    // The plan's files are `{room key}/{file}`.
    const args = encodeArgs(plan, { inputDir: deps.recordingsDir, nameFile, fontFile, output: mp4, threads });
    await runFfmpeg(ffmpeg.path, args, {
      signal,
      onLine: progressReader((ms) => {
        const share = Math.min(ms, plan.durationMs) / plan.durationMs;
        progress(PROBED + (ENCODED - PROBED) * share).catch((error: unknown) =>
          log.warn({ sessionId, err: error }, 'writing replay progress failed'),
        );
      }),
    });
    await progress(ENCODED, true);
    await runFfmpeg(ffmpeg.path, hlsArgs(mp4, path.join(work, REPLAY_FILES.hlsDir)), { signal });
    await progress(SEGMENTED, true);
    await fs.rm(nameFile);
    await fs.writeFile(path.join(work, REPLAY_FILES.timeline), JSON.stringify(plan.timeline));

    const final = replayDir(deps.replaysDir, sessionId);
    await fs.rm(final, { recursive: true, force: true });
    await fs.rename(work, final);
  } catch (error) {
    await fs.rm(work, { recursive: true, force: true });
    throw error;
  }
  const ready = await finish(deps, sessionId, {
    recordingState: 'ready',
    recordingProgress: 100,
    replayDurationMs: plan.durationMs,
  });
  if (!ready) {
    // The session went away while its replay was made: its files go too.
    await removeReplayFiles(deps.replaysDir, sessionId);
    return;
  }
  // The replay holds everything the raw recording had; keeping both would double the disk a lecture takes.
  await removeRaw();
  log.info({ sessionId, durationMs: plan.durationMs }, 'replay ready');
}

/**
 * Reads the raw recording of each room and measures its files. A room whose recording is missing or damaged
 * is left out (and said) when another one is read: its node may have died before writing anything, or the
 * teacher came back without recording; with none read, the first room's reason fails the job.
 */
async function readParts(
  deps: ReplayDeps,
  rooms: SessionPart[],
  signal: AbortSignal,
): Promise<RecordingPart[]> {
  const parts: RecordingPart[] = [];
  let problem: unknown = null;
  const firstStart = rooms[0]?.startedAt.getTime() ?? 0;
  for (const room of rooms) {
    const rawDir = rawFolder(deps.recordingsDir, room.mediaKey);
    let recording: Recording;
    try {
      recording = readRecording(await readManifest(rawDir));
    } catch (error) {
      if (!(error instanceof ReplayError)) throw error;
      problem ??= error;
      if (rooms.length > 1) {
        deps.log.warn(
          { mediaKey: room.mediaKey, err: error },
          'a room of the session left out of its replay',
        );
      }
      continue;
    }
    const probes = new Map<string, MediaProbe | null>();
    for (const track of recording.tracks) {
      const file = path.join(rawDir, track.file);
      probes.set(track.file, await probeMedia(deps.ffmpeg.path, file, mediaKindOf(track.kind), signal));
    }
    const offsetMs = Math.max(0, room.startedAt.getTime() - firstStart);
    parts.push({ key: room.mediaKey, offsetMs, recording, probes });
  }
  if (parts.length === 0) throw problem ?? new ReplayError(RECORDING_MISSING);
  return parts;
}

function rawFolder(recordingsDir: string, mediaKey: string): string {
  try {
    return recordingDir(recordingsDir, mediaKey);
  } catch {
    throw new ReplayError(RECORDING_MISSING);
  }
}

function readRecording(manifest: string) {
  try {
    return parseManifest(manifest);
  } catch (error) {
    if (error instanceof ManifestError) throw new ReplayError(RECORDING_DAMAGED);
    throw error;
  }
}

async function readManifest(rawDir: string): Promise<string> {
  try {
    return await fs.readFile(path.join(rawDir, RECORDING_MANIFEST), 'utf8');
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new ReplayError(RECORDING_MISSING);
    throw error;
  }
}

/** Sets the session's outcome if it is still waiting for its replay; false when it is not (deleted, changed). */
async function finish(
  deps: ReplayDeps,
  sessionId: number,
  outcome: { recordingState: 'ready' | 'none'; recordingProgress: number; replayDurationMs: number | null },
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
