import { eq } from 'drizzle-orm';
import { liveSessions } from '../db/schema.ts';
import { type JobHandler, PermanentJobError } from '../jobs/job-worker.ts';
import { sessionRooms } from '../sessions/session-parts.ts';
import { encodeWindows } from './replay-encode.ts';
import { windowsDir } from './replay-files.ts';
import { type ReplayDeps, ReplayPayloadSchema } from './replay-job.ts';
import { boardPictures, planRecording, settledUntil } from './replay-plan.ts';
import { localRawRecordings } from './raw-recordings.ts';
import { toReplayMs } from './replay-timeline.ts';
import { AUDIO_EDGE_MS, WINDOW_MS } from './replay-windows.ts';

/**
 * The shortest wait between two rounds of the job. A round comes back when the next window should be settled
 * (about one window later): each round measures every file of the lecture again, which takes longer as it
 * grows (about a second an hour per file).
 */
export const AHEAD_EVERY_MS = 15_000;
/**
 * How far behind the streams' last media a window must end: a media node writes a file's packets a little
 * after they arrive, and a stream's file may lag the others by this much.
 */
export const SETTLE_MS = 5_000;

/**
 * The job (REPLAY_AHEAD_JOB) that makes a lecture's replay while it runs, so that after the lecture the
 * replay job finds its windows (`replay-windows.ts`) made and only encodes the last ones and joins them. While
 * the session is recorded and live, it encodes the windows that end {@link SETTLE_MS} before the earliest of
 * its streams' last media, with one thread (it shares the machine with the lecture), and comes back when the
 * next one should be settled (at least {@link AHEAD_EVERY_MS} later); once the session has ended it stops, and
 * the replay job takes what it made. The recording is read where the media service writes it (RECORDINGS_DIR), or
 * with the object store from a local copy that each round brings up to date with what the node uploaded.
 */
export function replayAheadJob(deps: ReplayDeps): JobHandler {
  const { db, ffmpeg, log, tuning } = deps;
  const live = async (sessionId: number) => {
    const [session] = await db
      .select({
        mediaKey: liveSessions.mediaKey,
        startedAt: liveSessions.startedAt,
        endedAt: liveSessions.endedAt,
        state: liveSessions.recordingState,
      })
      .from(liveSessions)
      .where(eq(liveSessions.id, sessionId));
    return session && session.state === 'recording' && session.endedAt === null ? session : null;
  };
  return {
    run: async (payload, { signal }) => {
      const parsed = ReplayPayloadSchema.safeParse(payload);
      if (!parsed.success) throw new PermanentJobError('invalid replay-ahead payload');
      const { sessionId } = parsed.data;
      const session = await live(sessionId);
      if (!session) return;
      const rooms = await sessionRooms(db, { id: sessionId, ...session });
      const raw = deps.raw ?? localRawRecordings(deps.recordingsDir);
      const recordingsDir = await raw.live(
        sessionId,
        rooms.map((room) => room.mediaKey),
      );
      const stallMs = () => tuning.stallMinMs;
      const source = { recordingsDir, ffmpegPath: ffmpeg.path, log, signal, stallMs };
      let planned;
      try {
        planned = await planRecording(source, rooms);
      } catch (error) {
        // Nothing recorded yet (no manifest, no readable file): the next round looks again.
        log.info({ sessionId, err: error }, 'replay ahead: nothing to encode yet');
        return { againInMs: deps.aheadEveryMs ?? AHEAD_EVERY_MS };
      }
      const { plan } = planned;
      const settledMs = toReplayMs(plan.timeline, settledUntil(planned.joined) - SETTLE_MS);
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
      const started = performance.now();
      const done = await encodeWindows(
        board?.plan ?? plan,
        {
          ffmpegPath: ffmpeg.path,
          inputDir: recordingsDir,
          fontFile: deps.fontFile,
          board: board?.pictures ?? null,
          windowsDir: windows,
          windowMs: deps.windowMs,
          threads: 1,
          signal,
          stallMinMs: tuning.stallMinMs,
          stallMaxMs: tuning.stallMaxMs,
          goOn: async () => (await live(sessionId)) !== null,
        },
        settledMs,
      );
      const encoded = done.filter((w) => !w.reused).length;
      if (encoded > 0) {
        const seconds = Math.round(performance.now() - started) / 1000;
        log.info(
          { sessionId, encoded, windows: done.length, settledMs, seconds },
          'replay windows made ahead',
        );
      }
      if (!(await live(sessionId))) return undefined;
      // Back when the window after those made should be settled, the lecture going on at its pace.
      const windowMs = deps.windowMs ?? WINDOW_MS;
      const nextSettledMs = (done.length + 1) * windowMs + AUDIO_EDGE_MS;
      const shortestMs = deps.aheadEveryMs ?? AHEAD_EVERY_MS;
      return { againInMs: Math.min(2 * windowMs, Math.max(shortestMs, nextSettledMs - settledMs)) };
    },
  };
}
