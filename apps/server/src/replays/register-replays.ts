import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { liveSessions } from '../db/schema.ts';
import type { JobHandler } from '../jobs/job-worker.ts';
import { findFfmpeg, findHangulFont } from './find-tools.ts';
import { registerReplayQueueing } from './queue-replays.ts';
import { registerRecordingRemoval } from './recording-removal.ts';
import { replayFileRoutes } from './replay-file-routes.ts';
import { REPLAY_JOB, replayJob } from './replay-job.ts';
import { replayRoutes } from './replay-routes.ts';
import { ReplayUrls } from './replay-urls.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Signs and checks the short-lived URLs of replay files. */
    replayUrls: ReplayUrls;
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
  registerRecordingRemoval(app);
  registerReplayQueueing(app);
  await app.register(replayRoutes);
  await app.register(replayFileRoutes);
}

/**
 * The replay job's handler, with the ffmpeg and the Hangul font found on this machine. Without an ffmpeg the
 * handler is left out: replay jobs stay queued (the raw recordings wait) and their sessions say why, until a
 * start that finds one processes them.
 */
export async function replayJobs(app: FastifyInstance): Promise<Record<string, JobHandler>> {
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
  return { [REPLAY_JOB]: replayJob({ db, recordingsDir, replaysDir, ffmpeg, fontFile, log }) };
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
