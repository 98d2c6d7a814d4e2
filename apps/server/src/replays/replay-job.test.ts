import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildTestApp, createUser } from '../../test/helper.ts';
import { insertClass } from '../../test/classes.ts';
import sharp from 'sharp';
import type { Stroke } from '@sea/contract/board';
import {
  brightness,
  type FixtureFile,
  frameDifference,
  makeRecording,
  probe,
  probeChapters,
  trackEvent,
} from '../../test/recording-fixture.ts';
import { boardStages, boardStrokes, chapterMarks, jobs, liveSessions, sessionParts } from '../db/schema.ts';
import { inkedPage } from '../materials/inked-page.ts';
import { insertMaterial, markReady } from '../materials/material-store.ts';
import { MATERIAL_FILES } from '../materials/material-urls.ts';
import { boardPicture } from './board-pictures.ts';
import { FRAME } from './composition-plan.ts';
import { enqueueReplay } from './enqueue-replay.ts';
import { type Ffmpeg, findFfmpeg } from './find-tools.ts';
import { probeMedia } from './probe-media.ts';
import { readReplayTimeline, REPLAY_FILES, replayDir } from './replay-files.ts';
import { toReplayMs } from './replay-timeline.ts';
import { skipNotice } from '../../test/skip-notice.ts';

const ffmpeg: Ffmpeg | null = await findFfmpeg(null);
if (!ffmpeg && process.env.CI === 'true') throw new Error('ffmpeg is required when CI=true');
if (!ffmpeg) skipNotice('replay-job.test.ts: SKIPPED, no ffmpeg with libx264 on this machine');

let app: FastifyInstance;
let classId: number;
/** Making fixtures and encoding take seconds each on a busy two-core machine. */
const FFMPEG_TEST_MS = 180_000;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function session(mediaKey: string): Promise<number> {
  const [row] = await app.db
    .insert(liveSessions)
    .values({ classId, mediaKey, nodeId: 'media-1', startedAt: new Date(), recordingState: 'recording' })
    .returning({ id: liveSessions.id });
  return row?.id ?? 0;
}

/** Waits for the session's replay to settle, and collects the progress values seen on the way. */
async function settled(sessionId: number, timeoutMs = 120_000) {
  const seen = new Set<number>();
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const [row] = await app.db.select().from(liveSessions).where(eq(liveSessions.id, sessionId));
    if (!row) throw new Error('session gone');
    seen.add(row.recordingProgress);
    if (row.recordingState !== 'processing') return { row, seen };
    if (Date.now() > deadline) throw new Error(`still processing at ${row.recordingProgress}%`);
    await sleep(100);
  }
}

/**
 * A recorded session held in two rooms: the origin's from `startedAt`, then the edge's (which took it over)
 * `edgeAfterMs` later; the session row names the edge's room, as after a takeover.
 */
async function twoRoomSession(
  classId: number,
  rooms: { origin: string; edge: string; startedAt: Date; edgeAfterMs: number },
): Promise<number> {
  const { origin, edge, startedAt, edgeAfterMs } = rooms;
  const [row] = await app.db
    .insert(liveSessions)
    .values({ classId, mediaKey: edge, nodeId: 'media-2', startedAt, recordingState: 'recording' })
    .returning({ id: liveSessions.id });
  const sessionId = row?.id ?? 0;
  await app.db.insert(sessionParts).values([
    { sessionId, mediaKey: origin, nodeId: 'media-1', startedAt },
    { sessionId, mediaKey: edge, nodeId: 'media-2', startedAt: new Date(startedAt.getTime() + edgeAfterMs) },
  ]);
  return sessionId;
}

/** The replays the job said were ready (`replayReady`), in order. */
const readyTold: { classId: number; sessionId: number }[] = [];

/**
 * The picture checks (the composition of toggles and pauses, the page with its ink) encode the most and depend
 * on ffmpeg, not on the database: they run on PGlite only. The PostgreSQL run keeps the tests where the job's
 * rows matter (a crash, joined rooms, missing recordings).
 */
const pictureTest = it.skipIf(process.env.TEST_DATABASE === 'postgres');

describe.skipIf(!ffmpeg)('replay job (ffmpeg)', () => {
  beforeAll(async () => {
    app = await buildTestApp({
      jobConcurrency: 1,
      // Windows of 3.2 s: every replay here is joined from several (replay-windows.ts).
      jobs: { pollMs: 100, leaseMs: 30_000, retryDelayMs: 100, replayWindowMs: 3_200 },
    });
    const teacher = await createUser(app, { nickname: '파도선생' });
    classId = await insertClass(app, teacher.id);
    app.events.on('replayReady', (ready) => void readyTold.push(ready));
  });
  afterAll(() => app?.close());

  pictureTest(
    'makes HLS and an MP4 of a lecture with toggles, two audio sources and a pause',
    async () => {
      const key = randomUUID();
      const dir = path.join(app.config.recordingsDir, key);
      // Session: webcam 0-4 s, off, back 8-12 s; screen 2-4 s and 7-12 s; microphone throughout; system audio
      // 2-4 s and 7-10 s; recording paused 4-6 s; end at 12 s. The replay is 10 s long; 4-5 s of it is black.
      const cam1: FixtureFile = { kind: 'webcamVideo', startMs: 0, lengthMs: 4_000 };
      const cam2: FixtureFile = { kind: 'webcamVideo', startMs: 8_000, lengthMs: 4_000 };
      const screen1: FixtureFile = {
        kind: 'screenShareVideo',
        startMs: 2_000,
        lengthMs: 2_000,
        size: '640x360',
      };
      const screen2: FixtureFile = {
        kind: 'screenShareVideo',
        startMs: 7_000,
        lengthMs: 5_000,
        size: '640x360',
      };
      const mic1: FixtureFile = { kind: 'webcamAudio', startMs: 0, lengthMs: 4_000 };
      const mic2: FixtureFile = { kind: 'webcamAudio', startMs: 6_000, lengthMs: 6_000 };
      const sys1: FixtureFile = { kind: 'screenShareAudio', startMs: 2_000, lengthMs: 2_000, frequency: 880 };
      const sys2: FixtureFile = { kind: 'screenShareAudio', startMs: 7_000, lengthMs: 3_000, frequency: 880 };
      const files = [cam1, cam2, screen1, screen2, mic1, mic2, sys1, sys2];
      await makeRecording(ffmpeg?.path ?? 'ffmpeg', dir, files, (track) => {
        const start = (f: FixtureFile) => trackEvent(f, track(f));
        const end = (f: FixtureFile) => ({
          type: 'trackEnd' as const,
          t: f.startMs + f.lengthMs,
          track: track(f),
        });
        return [
          start(cam1),
          start(mic1),
          start(screen1),
          start(sys1),
          { type: 'pause', t: 4_000 },
          ...[cam1, mic1, screen1, sys1].map(end),
          { type: 'resume', t: 6_000 },
          start(mic2),
          start(screen2),
          start(sys2),
          start(cam2),
          end(sys2),
          ...[cam2, screen2, mic2].map(end),
          { type: 'end', t: 12_000 },
        ];
      });
      const sessionId = await session(key);
      // Chapters: a page shown from 1 s for 3 s (session time), and the teacher's mark at 9 s of the session.
      const [sessionRow] = await app.db.select().from(liveSessions).where(eq(liveSessions.id, sessionId));
      const at = (ms: number) => new Date((sessionRow?.startedAt.getTime() ?? 0) + ms);
      await app.db.insert(boardStages).values([
        { sessionId, materialId: 0, page: 1, at: at(1_000) },
        { sessionId, materialId: null, page: null, at: at(12_000) },
      ]);
      await app.db.insert(chapterMarks).values({ sessionId, at: at(9_000), title: '파동; 정리 = 끝' });
      expect(await enqueueReplay(app.db, sessionId)).toEqual(expect.any(Number));
      // Enqueueing again while it waits or runs adds nothing.
      expect(await enqueueReplay(app.db, sessionId)).toBeNull();

      const { row, seen } = await settled(sessionId);
      expect(row).toMatchObject({ recordingState: 'ready', recordingProgress: 100, recordingError: null });
      expect(row.replayDurationMs).toBe(10_000);
      expect([...seen].some((p) => p > 0 && p < 100)).toBe(true);
      // The queue marks its job done just after the job has marked the session ready.
      const job = async () =>
        (
          await app.db
            .select()
            .from(jobs)
            .where(eq(jobs.key, `replay:${sessionId}`))
        )[0];
      await expect
        .poll(job, { timeout: 10_000 })
        .toMatchObject({ state: 'done', progress: 100, attempts: 1 });

      const out = replayDir(app.config.replaysDir, sessionId);
      for (const file of [path.join(out, REPLAY_FILES.mp4), path.join(out, REPLAY_FILES.playlist)]) {
        const { streams, durationS } = await probe(file);
        // The MP4's chapters also come as QuickTime's chapter text track (a data stream).
        const media = streams.filter((s) => s.codec_type !== 'data');
        expect(media.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
        expect(streams.find((s) => s.codec_type === 'video')).toMatchObject({
          pix_fmt: 'yuv420p',
          width: 1280,
          height: 720,
        });
        expect(Math.abs(durationS - 10)).toBeLessThan(1);
      }
      const playlist = fs.readFileSync(path.join(out, REPLAY_FILES.playlist), 'utf8');
      expect(playlist).toContain('#EXT-X-PLAYLIST-TYPE:VOD');
      expect(playlist).toContain('#EXT-X-ENDLIST');
      // The picture: the webcam fills it at 0.5 s; from 1 s the blank whiteboard page is on stage, so at 4.5 s
      // (session 6.5 s, when nothing else is shown) the picture is that white page, not black with the name.
      const webcam = await brightness(path.join(out, REPLAY_FILES.mp4), 0.5);
      const board = await brightness(path.join(out, REPLAY_FILES.mp4), 4.5);
      expect(webcam.mean).toBeGreaterThan(60);
      expect(board.mean).toBeGreaterThan(200);
      // The pause is cut out, and the chat's session times map onto the replay.
      const timeline = await readReplayTimeline(app.files.replays, sessionId);
      expect(timeline?.cuts).toEqual([{ atMs: 4_000, lengthMs: 2_000 }]);
      expect(timeline && toReplayMs(timeline, 9_000)).toBe(7_000);
      // The MP4 carries the chapters as chapter atoms, on the replay's clock; the HLS folder as WebVTT.
      const mp4 = path.join(out, REPLAY_FILES.mp4);
      expect(await probeChapters(mp4)).toEqual([
        { start: 0, end: 1, title: '시작' },
        { start: 1, end: 7, title: '빈 페이지 1' },
        { start: 7, end: 10, title: '파동; 정리 = 끝' },
      ]);
      expect(fs.readFileSync(path.join(out, REPLAY_FILES.chapters), 'utf8')).toContain(
        '00:00:07.000 --> 00:00:10.000\n파동; 정리 = 끝',
      );
      // A mark added once the replay is ready is written into the MP4 by a remux (no encoding).
      await app.db.insert(chapterMarks).values({ sessionId, at: at(500), title: '도입' });
      app.replayChapters.changed(sessionId);
      await app.replayChapters.settled();
      expect((await probeChapters(mp4)).map((chapter) => chapter.title)).toEqual([
        '시작',
        '도입',
        '빈 페이지 1',
        '파동; 정리 = 끝',
      ]);
      const remuxed = await probe(mp4);
      expect(remuxed.streams.filter((s) => s.codec_type === 'data')).toHaveLength(1);
      expect(remuxed.durationS).toBeCloseTo(10, 0);
      // Its students are told (the notices listen to this event).
      expect(readyTold).toContainEqual({ classId, sessionId });
      // The raw recording is gone once the replay is ready; no work folder is left.
      expect(fs.existsSync(dir)).toBe(false);
      expect(fs.readdirSync(app.config.replaysDir)).toEqual([String(sessionId)]);
    },
    FFMPEG_TEST_MS,
  );

  pictureTest(
    'shows the page on stage with its ink in the MP4, beside the screen share or instead of it',
    async () => {
      // Session: webcam and microphone 0-7 s, the screen shared 1-3 s; page 1 of a material on stage at 2 s
      // beside the screen share, page 2 at 3.5 s instead of it with a red stroke drawn 3.6-3.8 s, the stage
      // left at 5.5 s.
      const startedAt = new Date(Date.now() - 60_000);
      const at = (ms: number) => new Date(startedAt.getTime() + ms);
      const key = randomUUID();
      const cam: FixtureFile = { kind: 'webcamVideo', startMs: 0, lengthMs: 7_000 };
      const mic: FixtureFile = { kind: 'webcamAudio', startMs: 0, lengthMs: 7_000 };
      const screen: FixtureFile = { kind: 'screenShareVideo', startMs: 1_000, lengthMs: 2_000 };
      await makeRecording(
        ffmpeg?.path ?? 'ffmpeg',
        path.join(app.config.recordingsDir, key),
        [cam, mic, screen],
        (track) => [
          trackEvent(cam, track(cam)),
          trackEvent(mic, track(mic)),
          trackEvent(screen, track(screen)),
          { type: 'end', t: 7_000 },
        ],
        startedAt,
      );
      const [row] = await app.db
        .insert(liveSessions)
        .values({ classId, mediaKey: key, nodeId: 'media-1', startedAt, recordingState: 'recording' })
        .returning({ id: liveSessions.id });
      const sessionId = row?.id ?? 0;
      const material = await insertMaterial(app.db, {
        classId,
        name: '수업 자료',
        kind: 'pdf',
        key: `materials/${randomUUID()}`,
      });
      const page = (background: string) =>
        sharp({ create: { width: 800, height: 600, channels: 3, background } })
          .webp()
          .toBuffer();
      const pages = [await page('#2040c0'), await page('#20a040')];
      for (const [index, image] of pages.entries())
        await app.materialFiles.putBytes(`${material.key}/${MATERIAL_FILES.page(index + 1)}`, image);
      await markReady(app.db, material.id, [
        { number: 1, title: null, text: '', width: 800, height: 600 },
        { number: 2, title: null, text: '', width: 800, height: 600 },
      ]);
      await app.db.insert(boardStages).values([
        { sessionId, materialId: material.id, page: 1, layout: 'side', at: at(2_000) },
        // A row stored before layouts were kept (null) is `board`.
        { sessionId, materialId: material.id, page: 2, layout: null, at: at(3_500) },
        { sessionId, materialId: null, page: null, layout: 'board', at: at(5_500) },
      ]);
      const stroke: Stroke = {
        material_id: material.id,
        page: 2,
        stroke_id: 'red',
        tool: 'pen',
        color: '#ff0000',
        width: 0.05,
        text: null,
        points: [
          [0.1, 0.3, 0.5],
          [0.5, 0.5, 0.5],
          [0.9, 0.3, 0.5],
        ],
        done: true,
        by: 'teacher',
      };
      await app.db.insert(boardStrokes).values({
        sessionId,
        materialId: material.id,
        page: 2,
        strokeId: stroke.stroke_id,
        userId: (await createUser(app)).id,
        tool: stroke.tool,
        color: stroke.color,
        width: stroke.width,
        points: stroke.points,
        done: true,
        startedAt: at(3_600),
        endedAt: at(3_800),
      });

      await enqueueReplay(app.db, sessionId);
      const { row: done } = await settled(sessionId);
      expect(done).toMatchObject({ recordingState: 'ready', recordingError: null });
      const out = replayDir(app.config.replaysDir, sessionId);
      const mp4 = path.join(out, REPLAY_FILES.mp4);
      // The pictures the MP4 should show (the webcam's corner, at the right, is left out of the comparison).
      const page1 = await inkedPage(pages[0] ?? null, [], FRAME);
      const page2 = await inkedPage(pages[1] ?? null, [stroke], FRAME);
      const left = 0.7;
      // At 2.8 s page 1 is beside the screen share: in the right half (up to the webcam's corner), the screen
      // share in the left one.
      const beside1 = await boardPicture(pages[0] ?? null, [], 'side');
      expect(await frameDifference(mp4, 2.8, beside1, left, 0.5)).toBeLessThan(8);
      expect(await frameDifference(mp4, 2.8, page1, left, 0.5)).toBeGreaterThan(30);
      expect(await frameDifference(mp4, 2.8, beside1, 0.5)).toBeGreaterThan(30);
      // At 3.2 s the screen share stopped: page 1 takes the picture alone.
      expect(await frameDifference(mp4, 3.2, page1, left)).toBeLessThan(8);
      expect(await frameDifference(mp4, 4.5, page2, left)).toBeLessThan(8);
      // Page 2 without its ink is further off: the ink is in the picture.
      const bare2 = await inkedPage(pages[1] ?? null, [], FRAME);
      expect(await frameDifference(mp4, 4.5, bare2, left)).toBeGreaterThan(
        (await frameDifference(mp4, 4.5, page2, left)) + 2,
      );
      // Before the stage and after it was left, the webcam fills the picture.
      for (const seconds of [0.5, 6.3]) {
        expect(await frameDifference(mp4, seconds, page1, left)).toBeGreaterThan(40);
        expect((await brightness(mp4, seconds)).mean).toBeGreaterThan(60);
      }
      // The board's pictures were the job's own: none is left beside the replay.
      expect(fs.readdirSync(out).sort()).toEqual(
        [REPLAY_FILES.hlsDir, REPLAY_FILES.mp4, REPLAY_FILES.timeline].sort(),
      );
    },
    FFMPEG_TEST_MS,
  );

  it(
    'makes the partial replay of a crashed session (no end, no trackEnd, files cut off)',
    async () => {
      const key = randomUUID();
      const dir = path.join(app.config.recordingsDir, key);
      const cam: FixtureFile = { kind: 'webcamVideo', startMs: 0, lengthMs: 5_000 };
      const mic: FixtureFile = { kind: 'webcamAudio', startMs: 300, lengthMs: 5_000 };
      await makeRecording(ffmpeg?.path ?? 'ffmpeg', dir, [cam, mic], (track) => [
        trackEvent(cam, track(cam)),
        trackEvent(mic, track(mic)),
        // The media service died while writing this line.
        '{"type":"pause","t":53',
      ]);
      // Its webcam file was cut off mid-write too.
      const camFile = path.join(dir, `${cam.kind}-0.webm`);
      fs.truncateSync(camFile, Math.floor(fs.statSync(camFile).size * 0.7));
      // Measured by its packets (a header's duration, if any, is not believed): less than the 5 s it had.
      const camLeft = await probeMedia(ffmpeg?.path ?? 'ffmpeg', camFile, 'video');
      expect(camLeft?.endMs).toBeGreaterThan(1_000);
      expect(camLeft?.endMs).toBeLessThan(4_500);

      const sessionId = await session(key);
      await enqueueReplay(app.db, sessionId);
      const { row } = await settled(sessionId);
      expect(row.recordingState).toBe('ready');
      // It ends at the last media: the microphone's file, from 0.3 s for 5 s.
      expect(Math.abs((row.replayDurationMs ?? 0) - 5_300)).toBeLessThan(100);
      const { streams, durationS } = await probe(
        path.join(replayDir(app.config.replaysDir, sessionId), REPLAY_FILES.mp4),
      );
      expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
      expect(Math.abs(durationS - 5.3)).toBeLessThan(1);
    },
    FFMPEG_TEST_MS,
  );

  it(
    'joins the rooms of a session whose origin died into one replay, the time between them cut',
    async () => {
      // The origin recorded 0-3 s and died (no trackEnd, no end); the room was taken over on an edge 5 s after
      // the session started and recorded 3 s more, then ended cleanly. Its screen is on only there.
      const startedAt = new Date(Date.now() - 60_000);
      const [origin, edge] = [randomUUID(), randomUUID()];
      const cam1: FixtureFile = { kind: 'webcamVideo', startMs: 0, lengthMs: 3_000 };
      const mic1: FixtureFile = { kind: 'webcamAudio', startMs: 0, lengthMs: 3_000 };
      await makeRecording(
        ffmpeg?.path ?? 'ffmpeg',
        path.join(app.config.recordingsDir, origin),
        [cam1, mic1],
        (track) => [trackEvent(cam1, track(cam1)), trackEvent(mic1, track(mic1))],
        startedAt,
      );
      const screen: FixtureFile = { kind: 'screenShareVideo', startMs: 0, lengthMs: 3_000, size: '640x360' };
      const mic2: FixtureFile = { kind: 'webcamAudio', startMs: 0, lengthMs: 3_000 };
      await makeRecording(
        ffmpeg?.path ?? 'ffmpeg',
        path.join(app.config.recordingsDir, edge),
        [screen, mic2],
        (track) => [
          trackEvent(screen, track(screen)),
          trackEvent(mic2, track(mic2)),
          { type: 'trackEnd', t: 3_000, track: track(screen) },
          { type: 'trackEnd', t: 3_000, track: track(mic2) },
          { type: 'end', t: 3_000 },
        ],
        new Date(startedAt.getTime() + 5_000),
      );
      const sessionId = await twoRoomSession(classId, { origin, edge, startedAt, edgeAfterMs: 5_000 });
      await enqueueReplay(app.db, sessionId);
      const { row: done } = await settled(sessionId);
      expect(done).toMatchObject({ recordingState: 'ready', recordingError: null });
      // 3 s from each room; the 2 s between them are cut out, and the chat's times map across.
      expect(Math.abs((done.replayDurationMs ?? 0) - 6_000)).toBeLessThan(100);
      const timeline = await readReplayTimeline(app.files.replays, sessionId);
      expect(timeline?.cuts).toHaveLength(1);
      expect(Math.abs((timeline?.cuts[0]?.atMs ?? 0) - 3_000)).toBeLessThan(100);
      expect(timeline && Math.abs(toReplayMs(timeline, 6_000) - 4_000)).toBeLessThan(100);
      const mp4 = path.join(replayDir(app.config.replaysDir, sessionId), REPLAY_FILES.mp4);
      const { streams, durationS } = await probe(mp4);
      expect(streams.map((s) => s.codec_name).sort()).toEqual(['aac', 'h264']);
      expect(Math.abs(durationS - 6)).toBeLessThan(1);
      // The origin's webcam fills the picture at 1 s, the edge's screen at 4.5 s (letterboxed 16:9: full).
      expect((await brightness(mp4, 1)).mean).toBeGreaterThan(60);
      expect((await brightness(mp4, 4.5)).mean).toBeGreaterThan(60);
      // Both rooms' raw recordings are gone; running the job again makes nothing twice.
      for (const key of [origin, edge])
        expect(fs.existsSync(path.join(app.config.recordingsDir, key))).toBe(false);
      expect(await enqueueReplay(app.db, sessionId)).toBeNull();
    },
    FFMPEG_TEST_MS,
  );

  it(
    'a room whose recording is missing is left out: the replay is made of the other',
    async () => {
      const startedAt = new Date(Date.now() - 60_000);
      const [origin, edge] = [randomUUID(), randomUUID()];
      const cam: FixtureFile = { kind: 'webcamVideo', startMs: 0, lengthMs: 2_000 };
      await makeRecording(
        ffmpeg?.path ?? 'ffmpeg',
        path.join(app.config.recordingsDir, edge),
        [cam],
        (track) => [trackEvent(cam, track(cam)), { type: 'end', t: 2_000 }],
        new Date(startedAt.getTime() + 4_000),
      );
      const sessionId = await twoRoomSession(classId, { origin, edge, startedAt, edgeAfterMs: 4_000 });
      await enqueueReplay(app.db, sessionId);
      const { row: done } = await settled(sessionId);
      expect(done.recordingState).toBe('ready');
      expect(Math.abs((done.replayDurationMs ?? 0) - 2_000)).toBeLessThan(100);
      // The session's first 4 s had nothing to show: cut, so the chat of the second room maps onto the replay.
      const timeline = await readReplayTimeline(app.files.replays, sessionId);
      expect(timeline?.cuts).toEqual([{ atMs: 0, lengthMs: 4_000 }]);
    },
    FFMPEG_TEST_MS,
  );

  it(
    'a session whose recording folder is missing fails with a reason, without retrying',
    async () => {
      const sessionId = await session(randomUUID());
      await enqueueReplay(app.db, sessionId);
      const { row } = await settled(sessionId);
      expect(row.recordingState).toBe('failed');
      expect(row.recordingError).toBe('녹화 파일을 찾을 수 없어 다시보기를 만들 수 없어요.');
      const [job] = await app.db
        .select()
        .from(jobs)
        .where(eq(jobs.key, `replay:${sessionId}`));
      expect(job).toMatchObject({ state: 'failed', attempts: 1 });
    },
    FFMPEG_TEST_MS,
  );
});
