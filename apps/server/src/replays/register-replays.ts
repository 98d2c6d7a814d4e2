import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { liveSessions } from '../db/schema.ts';
import { hurryJobs } from '../jobs/job-queue.ts';
import type { JobHandler } from '../jobs/job-worker.ts';
import { DEFAULT_JOB_TUNING } from '../jobs/register-jobs.ts';
import { findFfmpeg, findHangulFont } from './find-tools.ts';
import { registerReplayQueueing } from './queue-replays.ts';
import { registerRecordingRemoval } from './recording-removal.ts';
import { ReplayChapters } from './replay-chapters.ts';
import { replayFileRoutes } from './replay-file-routes.ts';
import { materialPageReader } from './board-pictures.ts';
import { REPLAY_AHEAD_JOB } from './enqueue-replay.ts';
import { replayAheadJob } from './replay-ahead.ts';
import { type BoardReader, REPLAY_JOB, type ReplayDeps, replayJob } from './replay-job.ts';
import { replayMetrics } from './replay-metrics.ts';
import { replayRemakeRoutes } from './replay-remake-routes.ts';
import { replayRoutes } from './replay-routes.ts';
import { ReplayUrls } from './replay-urls.ts';
import { SpaceWaits } from './space-waits.ts';
import { rawRecordingsOf } from './raw-recordings.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Signs and checks the short-lived URLs of replay files. */
    replayUrls: ReplayUrls;
    /** The chapters inside replays' files (the chapters module gives their source and tells of changes). */
    replayChapters: ReplayChapters;
  }
}

/** What the dashboard shows for a recording that waits for ffmpeg. */
export const FFMPEG_MISSING =
  'ffmpeg가 없어 다시보기를 만들 수 없어요. 서버에 ffmpeg를 설치하고 다시 시작하면 녹화 파일로 다시보기를 만들어요.';
const WAITING_NOTICE_INTERVAL_MS = 60_000;

/**
 * The replays of live sessions: a recorded session's replay is queued when it ends, recordings go with their
 * class, and the routes list, watch, rename, hide and delete replays and serve their files through signed
 * URLs. The job that makes them runs where the job worker does ({@link replayJobs}).
 */
export async function registerReplays(app: FastifyInstance): Promise<void> {
  app.decorate('replayUrls', new ReplayUrls(app.config.jwtSecret));
  let ffmpeg: Promise<string | null> | null = null;
  const chapters = new ReplayChapters({
    db: app.db,
    replays: app.files.replays,
    replaysDir: app.config.replaysDir,
    log: app.log.child({ module: 'replays' }),
    ffmpegPath: () => (ffmpeg ??= findFfmpeg(app.config.ffmpegPath).then((found) => found?.path ?? null)),
  });
  app.decorate('replayChapters', chapters);
  app.addHook('preClose', () => chapters.close());
  registerRecordingRemoval(app);
  replayMetrics(app.metrics, { recordings: app.config.recordingsDir, replays: app.config.replaysDir });
  registerReplayQueueing(app);
  await app.register(replayRoutes);
  await app.register(replayRemakeRoutes);
  await app.register(replayFileRoutes);
}

/**
 * The replay job's handler, with the ffmpeg and the Hangul font found on this machine, and the sessions' board
 * (`readBoard`, the board's) drawn into the MP4 from the materials' pages. Without an ffmpeg the
 * handler is left out: replay jobs stay queued (the raw recordings wait) and their sessions say why, until a
 * start that finds one processes them.
 */
export async function replayJobs(
  app: FastifyInstance,
  readBoard?: BoardReader,
): Promise<Record<string, JobHandler>> {
  const { config, db } = app;
  const log = app.log.child({ module: 'replays' });
  const ffmpeg = await findFfmpeg(config.ffmpegPath);
  if (!ffmpeg) {
    log.warn(
      { ffmpegPath: config.ffmpegPath },
      'no ffmpeg with libx264: recordings wait raw until one is installed',
    );
    registerWaitingNotice(app);
    return {};
  }
  const fontFile = await findHangulFont();
  if (!fontFile) log.warn('no font with Hangul: a replay without video shows plain black, without the name');
  log.info({ ffmpeg: ffmpeg.path, source: ffmpeg.source, fontFile }, 'replays are made with ffmpeg');
  const { recordingsDir, replaysDir } = config;
  const tuning = { ...DEFAULT_JOB_TUNING, ...config.jobs };
  const spaceWaits = new SpaceWaits(db, replaysDir, REPLAY_JOB);
  registerRetries(app, spaceWaits, tuning.spaceCheckMs);
  const deps: ReplayDeps = {
    db,
    recordingsDir,
    raw: rawRecordingsOf(config, app.files.recordings),
    replays: app.files.replays,
    replaysDir,
    ffmpeg,
    fontFile,
    log,
    tuning,
    spaceWaits,
    chapters: app.replayChapters,
    board: readBoard && { read: readBoard, pages: materialPageReader(db, app.materialFiles) },
    onReady: (ready) => app.events.emit('replayReady', ready),
    windowMs: tuning.replayWindowMs,
    aheadEveryMs: tuning.replayAheadEveryMs,
  };
  return { [REPLAY_JOB]: replayJob(deps), [REPLAY_AHEAD_JOB]: replayAheadJob(deps) };
}

/**
 * Replays that wait for their cause to go are tried at once when this server starts (it may have been
 * restarted because the cause went: ffmpeg installed, the disk grown) and when the replays' disk has room
 * again for one waiting for space, instead of at the end of their backoff.
 */
function registerRetries(app: FastifyInstance, spaceWaits: SpaceWaits, checkMs: number): void {
  const log = app.log.child({ module: 'replays' });
  let interval: NodeJS.Timeout | undefined;
  let checking = false;
  const check = async () => {
    if (checking) return;
    checking = true;
    try {
      const hurried = await spaceWaits.check();
      if (hurried > 0) log.info({ hurried }, 'disk space came back: waiting replays are tried now');
    } catch (error) {
      log.warn({ err: error }, 'checking the replays’ disk space failed');
    } finally {
      checking = false;
    }
  };
  app.addHook('onReady', async () => {
    const hurried = await hurryJobs(app.db, REPLAY_JOB);
    if (hurried > 0) log.info({ hurried }, 'waiting replays are tried again now that the server started');
    interval = setInterval(() => void check(), checkMs);
    interval.unref();
  });
  app.addHook('preClose', async () => clearInterval(interval));
}

/** Writes FFMPEG_MISSING into every session waiting for its replay without a reason yet. */
export async function markWaitingForFfmpeg(db: Database): Promise<number> {
  const marked = await db
    .update(liveSessions)
    .set({ recordingError: FFMPEG_MISSING })
    .where(and(eq(liveSessions.recordingState, 'processing'), isNull(liveSessions.recordingError)))
    .returning({ id: liveSessions.id });
  return marked.length;
}

function registerWaitingNotice(app: FastifyInstance): void {
  const mark = () => {
    markWaitingForFfmpeg(app.db).catch((error: unknown) =>
      app.log.warn({ err: error }, 'marking recordings that wait for ffmpeg failed'),
    );
  };
  let interval: NodeJS.Timeout | undefined;
  app.addHook('onReady', async () => {
    mark();
    interval = setInterval(mark, WAITING_NOTICE_INTERVAL_MS);
    interval.unref();
  });
  app.addHook('preClose', async () => clearInterval(interval));
}
