import { execFileSync } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser } from '../../test/helper.ts';
import { insertClass } from '../../test/classes.ts';
import { probe } from '../../test/recording-fixture.ts';
import {
  aheadEnded,
  aheadRound,
  endRecording,
  liveRecording,
  replayMade,
  windowFiles,
} from '../../test/live-recording.ts';
import { recordedSession } from '../../test/replay-sessions.ts';
import { skipNotice } from '../../test/skip-notice.ts';
import { liveSessions } from '../db/schema.ts';
import { enqueueReplay, enqueueReplayAhead } from './enqueue-replay.ts';
import { type Ffmpeg, findFfmpeg } from './find-tools.ts';
import { REPLAY_FILES, replayDir, windowsDir } from './replay-files.ts';

const ffmpeg: Ffmpeg | null = await findFfmpeg(null);
const ffmpegPath = ffmpeg?.path ?? 'ffmpeg';
if (!ffmpeg && process.env.CI === 'true') throw new Error('ffmpeg is required when CI=true');
if (!ffmpeg) skipNotice('replay-ahead.test.ts: SKIPPED, no ffmpeg with libx264 on this machine');

const FFMPEG_TEST_MS = 180_000;
/** Windows of 3.2 s (`replay-windows.ts`), so a 16 s lecture has five. */
const WINDOW_MS = 3_200;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

let app: FastifyInstance;
let classId: number;

/** The replay's MP4: its length and, per stream, its codec, picture size and packets. */
async function made(sessionId: number) {
  const file = path.join(replayDir(app.config.replaysDir, sessionId), REPLAY_FILES.mp4);
  const { streams, durationS } = await probe(file);
  const packets = (stream: string) =>
    Number(
      execFileSync('ffprobe', [
        '-v',
        'error',
        '-select_streams',
        stream,
        '-count_packets',
        '-show_entries',
        'stream=nb_read_packets',
        '-of',
        'csv=p=0',
        file,
      ])
        .toString()
        .trim(),
    );
  return {
    durationS,
    streams: streams.map((s) => [s.codec_type, s.codec_name, s.width ?? null, s.height ?? null]),
    videoPackets: packets('v'),
    audioPackets: packets('a'),
  };
}

/**
 * Encodes the most and depends on ffmpeg, not on the database: PGlite only, as the replay job's picture tests
 * (a job answering "again" is tested on both databases in job-worker.test.ts).
 */
describe.skipIf(!ffmpeg || process.env.TEST_DATABASE === 'postgres')(
  'replay made ahead while the lecture runs',
  () => {
    beforeAll(async () => {
      app = await buildTestApp({
        jobConcurrency: 1,
        jobs: {
          pollMs: 100,
          leaseMs: 30_000,
          retryDelayMs: 100,
          replayWindowMs: WINDOW_MS,
          replayAheadEveryMs: 300,
        },
      });
      const teacher = await createUser(app, { nickname: '파도선생' });
      classId = await insertClass(app, teacher.id);
    });
    afterAll(() => app?.close());

    it(
      'encodes the settled windows while live; after the end the replay takes them and equals one made after',
      async () => {
        const key = randomUUID();
        const dir = path.join(app.config.recordingsDir, key);
        await liveRecording(ffmpegPath, dir);
        // The same recording, made into a replay only after its end, for comparison.
        const afterKey = randomUUID();
        fs.cpSync(dir, path.join(app.config.recordingsDir, afterKey), { recursive: true });
        const sessionId = await recordedSession(app, classId, key, { live: true });
        await enqueueReplayAhead(app.db, sessionId, 0);

        // 16 s of media, settled 5 s behind: the windows ending by 11 s (three) and no more, round after round.
        const ahead = await aheadRound(app, sessionId, 3);
        await sleep(1_000);
        expect(windowFiles(app, sessionId)).toEqual(ahead);
        expect([...ahead.keys()].map((name) => name.slice(0, 5)).sort()).toEqual([
          '00000',
          '00000',
          '00001',
          '00001',
          '00002',
          '00002',
        ]);

        endRecording(dir, 16_000);
        await app.db.update(liveSessions).set({ endedAt: new Date() }).where(eq(liveSessions.id, sessionId));
        await enqueueReplay(app.db, sessionId);
        const { row, seen } = await replayMade(app, sessionId);
        expect(row?.recordingState).toBe('ready');
        // The windows made ahead were used as they were; only the last two were encoded after the end.
        for (const [name, identity] of ahead) expect(seen.get(name)).toBe(identity);
        const fresh = [...seen.keys()].filter((name) => !ahead.has(name));
        expect(fresh.map((name) => name.slice(0, 5)).sort()).toEqual(['00003', '00003', '00004', '00004']);
        // The folder goes with the raw recording once the replay is made; the job stopped with the lecture.
        const gone = Date.now() + 10_000;
        while (fs.existsSync(windowsDir(app.config.replaysDir, sessionId)) && Date.now() < gone)
          await sleep(50);
        expect(fs.existsSync(windowsDir(app.config.replaysDir, sessionId))).toBe(false);
        // Its round due after the end (at most two windows on) finds the lecture over and ends the job.
        expect(await aheadEnded(app, sessionId)).toBe('done');

        endRecording(path.join(app.config.recordingsDir, afterKey), 16_000);
        const afterId = await recordedSession(app, classId, afterKey);
        await enqueueReplay(app.db, afterId);
        expect((await replayMade(app, afterId)).row?.recordingState).toBe('ready');
        const during = await made(sessionId);
        const after = await made(afterId);
        expect(during.streams).toEqual(after.streams);
        expect(during.videoPackets).toBe(after.videoPackets);
        expect(during.audioPackets).toBe(after.audioPackets);
        expect(Math.abs(during.durationS - after.durationS)).toBeLessThan(0.05);
        expect(Math.abs(during.durationS - 16)).toBeLessThan(0.1);
        expect(during.videoPackets).toBe(16 * 30);
      },
      FFMPEG_TEST_MS,
    );

    it(
      'a lecture whose media service crashed mid-way still gets its replay, windows made ahead or not',
      async () => {
        const key = randomUUID();
        const { camFile } = await liveRecording(ffmpegPath, path.join(app.config.recordingsDir, key));
        const sessionId = await recordedSession(app, classId, key, { live: true });
        await enqueueReplayAhead(app.db, sessionId, 0);
        await aheadRound(app, sessionId, 3);

        // The media service died: no end in the manifest, and the webcam's file cut off mid-write.
        fs.truncateSync(camFile, Math.floor(fs.statSync(camFile).size * 0.6));
        await app.db.update(liveSessions).set({ endedAt: new Date() }).where(eq(liveSessions.id, sessionId));
        await enqueueReplay(app.db, sessionId);
        const { row } = await replayMade(app, sessionId);
        expect(row?.recordingState).toBe('ready');
        // It lasts to the last media (the microphone's 16 s); the webcam's lost end is black.
        expect(Math.abs((row?.replayDurationMs ?? 0) - 16_000)).toBeLessThan(100);
        const replay = await made(sessionId);
        expect(replay.streams.map(([type]) => type).sort()).toEqual(['audio', 'video']);
        expect(Math.abs(replay.durationS - 16)).toBeLessThan(0.1);
      },
      FFMPEG_TEST_MS,
    );
  },
);
