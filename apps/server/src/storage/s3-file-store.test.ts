import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, vi } from 'vitest';
import type { ClassItem } from '@sea/contract/classes';
import { ROUTES, toPath } from '@sea/contract/paths';
import {
  objectStoreAvailable,
  type ObjectStore,
  startObjectStore,
} from '../../../../harness/object-store.ts';
import { classDto, insertClass, insertEnrolment, postClass } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';
import { jpeg } from '../../test/images.ts';
import { imagePart } from '../../test/multipart.ts';
import {
  type FixtureFile,
  makeRecording,
  probeChapters,
  trackEvent,
  webcamRecording,
} from '../../test/recording-fixture.ts';
import { aheadRound, endRecording, liveRecording, replayMade } from '../../test/live-recording.ts';
import { uploadRecording } from '../../test/recording-store.ts';
import {
  QUICK_REPLAY_JOBS,
  recordedSession,
  replayJobRow,
  sessionRow,
  sessionUntil,
} from '../../test/replay-sessions.ts';
import { insertSession, writeReplayFiles } from '../../test/sessions.ts';
import { skipNotice } from '../../test/skip-notice.ts';
import { insertMaterial, markReady } from '../materials/material-store.ts';
import { enqueueReplay, enqueueReplayAhead } from '../replays/enqueue-replay.ts';
import { findFfmpeg } from '../replays/find-tools.ts';
import { REPLAY_REASONS } from '../replays/replay-failure.ts';
import { REPLAY_FILES, windowsDir } from '../replays/replay-files.ts';
import { UPLOAD_WAIT_MS } from '../replays/raw-recordings.ts';
import { chapterMarks, liveSessions } from '../db/schema.ts';
import { completeKey, partKey } from '@sea/service-kit/storage/recording-objects';
import { LocalFileStore } from '@sea/service-kit/storage/local-file-store';
import { migrateFiles } from './migrate-files.ts';
import { PART_BYTES } from '@sea/service-kit/storage/s3-file-store';
import type { S3Settings } from '@sea/service-kit/storage/storage-config';

// One Swift for the whole file: it takes seconds to start on an idle machine, far more on a loaded one.
const available = await objectStoreAvailable();
if (!available && process.env.CI === 'true') throw new Error('OpenStack Swift is required when CI=true');
if (!available)
  skipNotice('OpenStack Swift (swift-proxy, swift-object...) is not installed: S3 tests skipped');

// The replay job's case encodes with the system's ffmpeg (required when CI=true, as everywhere).
const ffmpeg = await findFfmpeg(null);

let store: ObjectStore;
let app: FastifyInstance;
let teacher: TestUser;

/** A raw recording goes from the store just after its session is marked ready. */
const GONE = { timeout: 10_000, interval: 200 };

const s3 = (settings: Partial<S3Settings> = {}) => ({ storage: { ...store.storage, ...settings } });
/** An API server on the bucket that runs replay jobs (one at a time, with quick retries). */
const replayMaker = () =>
  buildTestApp({ ...s3(), jobConcurrency: 1, ffmpegPath: ffmpeg?.path ?? null, jobs: QUICK_REPLAY_JOBS });

describe.runIf(available)('the platform on an S3 object store (OpenStack Swift)', () => {
  beforeAll(async () => {
    store = await startObjectStore();
    app = await buildTestApp(s3());
    teacher = await createUser(app);
  }, 180_000);
  afterAll(async () => {
    await app?.close();
    await store?.stop();
  });

  it('keeps files whole under their keys: ranges, listings, folders, removal', async () => {
    const files = app.files.materials;
    await files.putBytes('t/a.txt', Buffer.from('0123456789'));
    expect((await files.read('t/a.txt'))?.toString()).toBe('0123456789');
    // The checksum is the store's ETag: the MD5 of a file put whole.
    const md5 = createHash('md5').update('0123456789').digest('hex');
    expect(await files.stat('t/a.txt')).toEqual({ size: 10, checksum: md5 });
    const part = await files.open('t/a.txt', { start: 3, end: 100 });
    expect(part?.range).toEqual({ start: 3, end: 9 });
    expect(part?.size).toBe(10);
    const chunks: Buffer[] = [];
    for await (const chunk of part?.stream ?? []) chunks.push(chunk as Buffer);
    expect(Buffer.concat(chunks).toString()).toBe('3456789');
    expect(await files.open('t/a.txt', { start: 10, end: 20 })).toBeNull();

    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-s3-folder-'));
    fs.mkdirSync(path.join(dir, 'hls'));
    fs.writeFileSync(path.join(dir, 'x.txt'), 'x');
    fs.writeFileSync(path.join(dir, 'hls', 'y.txt'), 'yy');
    await files.putFolder('t', dir);
    expect(fs.existsSync(dir)).toBe(false);
    // The folder replaced what was there: a.txt is gone.
    const listed = (await files.list('t')).sort((a, b) => a.key.localeCompare(b.key));
    expect(listed).toEqual([
      { key: 't/hls/y.txt', size: 2 },
      { key: 't/x.txt', size: 1 },
    ]);
    // Areas share the bucket without seeing each other.
    expect(await app.files.replays.list('t')).toEqual([]);
    await files.removeAll('t');
    expect(await files.list('t')).toEqual([]);
    expect(await files.read('t/x.txt')).toBeNull();
    await files.remove('t/x.txt'); // none there is no error
  });

  it('stores a banner in the bucket and serves it back through the API', async () => {
    const banner = await jpeg(1184, 400);
    const created = await postClass(app, teacher, classDto({ name: 'S3 강의' }), [
      imagePart(banner, 'b.jpg'),
    ]);
    const url = expectOk<ClassItem>(created).banner_image_path ?? '';
    expect(url).toMatch(/^\/uploads\/banners\/[0-9a-f-]{36}\.jpg$/);
    const key = url.slice('/uploads/'.length);
    expect(await app.files.uploads.stat(key)).not.toBeNull();
    const served = await app.inject(url);
    expect(served.statusCode).toBe(200);
    expect(served.headers['content-type']).toBe('image/jpeg');
    expect(served.rawPayload.subarray(0, 2).equals(Buffer.from([0xff, 0xd8]))).toBe(true);
    const card = await app.inject(url.replace(/\.jpg$/, '.card.jpg'));
    expect(card.statusCode).toBe(200);
    expect((await app.inject('/uploads/banners/nope.jpg')).statusCode).toBe(404);
  });

  it('serves a replay’s MP4 by Range and its playlist from the bucket, and stops once access ends', async () => {
    const student = await createUser(app);
    const classId = await insertClass(app, teacher.id);
    await insertEnrolment(app, classId, student.id);
    const session = await insertSession(app, classId);
    const mp4 = Buffer.from('ftyp0123456789abcdefghijklmnopqrstuvwxyz');
    const { dir } = writeReplayFiles(app, session, mp4);
    await app.files.replays.putFolder(String(session.id), dir);
    const { mp4_url: mp4Url, hls_url: hlsUrl } = app.replayUrls.forViewer(student.id).urls(session.id);

    const part = await app.inject({ url: mp4Url, headers: { range: 'bytes=4-9' } });
    expect(part.statusCode).toBe(206);
    expect(part.headers['content-range']).toBe(`bytes 4-9/${mp4.length}`);
    expect(part.body).toBe('012345');
    expect((await app.inject({ url: mp4Url, headers: { range: 'bytes=999-' } })).statusCode).toBe(416);
    const playlist = await app.inject(hlsUrl);
    expect(playlist.statusCode).toBe(200);
    const segment = playlist.body.split('\n').find((line) => line.startsWith('segment-')) ?? '';
    const base = toPath(ROUTES.replayPlaylist, { sessionId: session.id }).replace(/index\.m3u8$/, '');
    const segmentAnswer = await app.inject(`${base}${segment}`);
    expect(segmentAnswer.statusCode).toBe(200);
    expect(segmentAnswer.body).toBe('seg0');

    // Unenrolled: the very next request is refused, though the URL's signature lives for hours.
    const enrol = toPath(ROUTES.enroll, { classId });
    expectOk(await app.inject({ method: 'DELETE', url: enrol, headers: bearer(student) }));
    expectError(await app.inject({ url: mp4Url, headers: { range: 'bytes=0-3' } }), 403);
    expectError(await app.inject(`${base}${segment}`), 403);
  });

  it('deleting a session’s recording removes its raw recording from the bucket too', async () => {
    const classId = await insertClass(app, teacher.id);
    const session = await insertSession(app, classId, { recordingState: 'failed' });
    // As a media node left it: parts of each file, then `complete`.
    const raw = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-raw-'));
    fs.writeFileSync(path.join(raw, 'manifest.jsonl'), '{"type":"end","t":1000}\n');
    fs.writeFileSync(path.join(raw, 'webcamVideo-1.webm'), Buffer.alloc(40_000, 1));
    await uploadRecording(app.files.recordings, session.mediaKey, raw);
    fs.rmSync(raw, { recursive: true });
    expect((await app.files.recordings.list(session.mediaKey)).length).toBeGreaterThan(3);
    const answer = await app.inject({
      method: 'DELETE',
      url: `/api/classes/${classId}/sessions/${session.id}`,
      headers: bearer(teacher),
    });
    expect(answer.statusCode).toBe(200);
    expect(await app.files.recordings.list(session.mediaKey)).toEqual([]);
  });

  it('serves a material’s page image from the bucket', async () => {
    const classId = await insertClass(app, teacher.id);
    const folder = `materials/${randomUUID()}`;
    const row = await insertMaterial(app.db, { classId, name: '자료', kind: 'pdf', key: folder });
    const page = Buffer.from('RIFF....WEBPVP8 page one');
    await app.files.materials.putBytes(`${folder}/page-1.webp`, page);
    await markReady(app.db, row.id, [{ number: 1, title: null, text: '', width: 1280, height: 720 }]);
    const answer = await app.inject(app.materialUrls.url(row.id, 'page-1.webp'));
    expect(answer.statusCode).toBe(200);
    expect(answer.headers['content-type']).toBe('image/webp');
    expect(answer.rawPayload.equals(page)).toBe(true);
    expect((await app.inject(app.materialUrls.url(row.id, 'page-2.webp'))).statusCode).toBe(404);
  });

  it('hands out presigned URLs that stop working when they expire', async () => {
    await app.files.replays.putBytes(`9999/${REPLAY_FILES.mp4}`, Buffer.from('video'));
    const url = await app.files.replays.signedUrl(`9999/${REPLAY_FILES.mp4}`, {
      expiresInS: 2,
      downloadName: 'attachment; filename="replay.mp4"',
    });
    expect(url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/sea-test\/replays\/9999\/replay\.mp4\?/);
    const fresh = await fetch(url ?? '');
    expect(fresh.status).toBe(200);
    expect(fresh.headers.get('content-disposition')).toBe('attachment; filename="replay.mp4"');
    expect(await fresh.text()).toBe('video');
    await new Promise((resolve) => setTimeout(resolve, 3_000));
    const expired = await fetch(url ?? '');
    expect(expired.status).toBe(403);
    expect(await expired.text()).toContain('Request has expired');
  });

  it('answers a clear 503 when the bucket refuses writes, and keeps no class', async () => {
    const refused = await buildTestApp(s3(store.refused));
    try {
      const owner = await createUser(refused);
      const banner = await jpeg(800, 300);
      const answer = await postClass(refused, owner, classDto({ name: '저장 거부' }), [imagePart(banner)]);
      const error = expectError(answer, 503);
      expect(error.message_kor).toBe(
        '파일을 저장하지 못했어요. 파일 저장소가 응답하지 않거나 저장을 거부했어요. 잠시 후 다시 시도해 주세요.',
      );
      // Nothing half-saved: the class was never written (its database is this app's own).
      const list = await refused.inject('/api/classes');
      expect(list.statusCode).toBe(200);
      expect(list.body).not.toContain('저장 거부');
      expect(list.body).not.toContain('banners/');
    } finally {
      await refused.close();
    }
    // A second app on its own database: slow to build on a loaded machine.
  }, 90_000);

  it.runIf(ffmpeg)(
    'a store down for 10 s under a replay job: the job says so and waits, then the replay lands in the bucket',
    async () => {
      const maker = await replayMaker();
      try {
        const owner = await createUser(maker);
        const classId = await insertClass(maker, owner.id);
        const key = randomUUID();
        // The media node uploaded the recording while the lecture ran: this server's disk never held it.
        const raw = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-raw-'));
        await webcamRecording(ffmpeg?.path ?? 'ffmpeg', raw);
        await uploadRecording(maker.files.recordings, key, raw);
        fs.rmSync(raw, { recursive: true });
        const rawKeys = async () => (await maker.files.recordings.list(key)).map((file) => file.key);
        expect((await rawKeys()).length).toBeGreaterThan(3);
        const sessionId = await recordedSession(maker, classId, key);
        await store.down();
        const downAt = Date.now();
        try {
          await enqueueReplay(maker.db, sessionId);
          const waiting = await sessionUntil(maker, sessionId, (row) =>
            (row.recordingError ?? '').includes('파일 저장소가 응답하지 않거나'),
          );
          expect(waiting.recordingState).toBe('processing');
          // The teacher's dashboard reads it so.
          const answer = await maker.inject({
            url: `/api/classes/${classId}/sessions/${sessionId}`,
            headers: bearer(owner),
          });
          expect(expectOk<{ recording: unknown }>(answer).recording).toMatchObject({
            state: 'processing',
            error: REPLAY_REASONS.store,
          });
          // Down for 10 s in all: several attempts meet it, none may give the replay up as failed.
          await new Promise((resolve) => setTimeout(resolve, Math.max(0, 10_000 - (Date.now() - downAt))));
          expect((await sessionRow(maker, sessionId)).recordingState).toBe('processing');
        } finally {
          await store.up();
        }
        const made = await sessionUntil(maker, sessionId, (row) => row.recordingState === 'ready', 120_000);
        expect(made.recordingError).toBeNull();
        expect((await replayJobRow(maker, sessionId))?.attempts).toBeGreaterThan(1);
        const keys = (await maker.files.replays.list(String(sessionId))).map((file) => file.key);
        expect(keys).toContain(`${sessionId}/${REPLAY_FILES.mp4}`);
        // The raw recording goes from the store once its replay is made, and nothing of it was left here.
        await vi.waitFor(async () => expect(await rawKeys()).toEqual([]), GONE);
        const { replaysDir } = maker.config;
        const workFolders = () => (fs.existsSync(replaysDir) ? fs.readdirSync(replaysDir) : []);
        await vi.waitFor(() => expect(workFolders()).toEqual([]), GONE);
      } finally {
        await maker.close();
      }
    },
    180_000,
  );

  it.runIf(ffmpeg)(
    'makes replays of recordings media nodes uploaded in parts: waits for one still going up (its chapters rewritten in the bucket), and makes a dead node’s of what it sent',
    async () => {
      const maker = await replayMaker();
      const raw = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-raw-'));
      try {
        const owner = await createUser(maker);
        const classId = await insertClass(maker, owner.id);
        await webcamRecording(ffmpeg?.path ?? 'ffmpeg', path.join(raw, 'ended'));
        // Still going up: the session says so, and the replay is made once the node marks it complete.
        const going = randomUUID();
        await uploadRecording(maker.files.recordings, going, path.join(raw, 'ended'), { complete: false });
        const goingId = await recordedSession(maker, classId, going);
        await enqueueReplay(maker.db, goingId);
        const waiting = await sessionUntil(
          maker,
          goingId,
          (row) => row.recordingError === REPLAY_REASONS.uploading,
        );
        expect(waiting.recordingState).toBe('processing');
        await maker.files.recordings.putBytes(completeKey(going), Buffer.alloc(0));
        const made = await sessionUntil(maker, goingId, (row) => row.recordingState === 'ready', 120_000);
        expect(made.replayDurationMs).toBeGreaterThan(2_900);
        await vi.waitFor(async () => expect(await maker.files.recordings.list(going)).toEqual([]), GONE);
        // A chapter set once the replay is ready reaches its MP4 in the bucket.
        await maker.db
          .insert(chapterMarks)
          .values({ sessionId: goingId, at: new Date(made.startedAt.getTime() + 1_000), title: '도입' });
        maker.replayChapters.changed(goingId);
        await maker.replayChapters.settled();
        const mp4 = path.join(raw, 'replay.mp4');
        await maker.files.replays.copyOut(`${goingId}/${REPLAY_FILES.mp4}`, mp4);
        expect((await probeChapters(mp4)).map((chapter) => chapter.title)).toEqual(['시작', '도입']);
        const vtt = await maker.files.replays.read(`${goingId}/${REPLAY_FILES.chapters}`);
        expect(vtt?.toString('utf8')).toContain('도입');

        // A node killed mid-lecture: its manifest has no end, its files stop at its last part, it never
        // finishes; once the wait for it is over, the replay is made of the parts it sent.
        const cam: FixtureFile = { kind: 'webcamVideo', startMs: 0, lengthMs: 4_000 };
        const mic: FixtureFile = { kind: 'webcamAudio', startMs: 0, lengthMs: 4_000 };
        await makeRecording(ffmpeg?.path ?? 'ffmpeg', path.join(raw, 'killed'), [cam, mic], (track) => [
          trackEvent(cam, track(cam)),
          trackEvent(mic, track(mic)),
        ]);
        const killed = randomUUID();
        await uploadRecording(maker.files.recordings, killed, path.join(raw, 'killed'), {
          complete: false,
          keep: 0.5,
        });
        const killedId = await recordedSession(maker, classId, killed);
        await maker.db
          .update(liveSessions)
          .set({ endedAt: new Date(Date.now() - UPLOAD_WAIT_MS) })
          .where(eq(liveSessions.id, killedId));
        await enqueueReplay(maker.db, killedId);
        const partial = await sessionUntil(maker, killedId, (row) => row.recordingState === 'ready', 120_000);
        expect(partial.replayDurationMs).toBeGreaterThan(1_000);
        expect(partial.replayDurationMs).toBeLessThan(3_500);
        await vi.waitFor(async () => expect(await maker.files.recordings.list(killed)).toEqual([]), GONE);
      } finally {
        fs.rmSync(raw, { recursive: true, force: true });
        await maker.close();
      }
    },
    240_000,
  );

  // Encodes; the database does not matter to it: PGlite only.
  it.runIf(ffmpeg && process.env.TEST_DATABASE !== 'postgres')(
    'makes a lecture’s replay while its node uploads it, from a copy that grows, and ready from it after',
    async () => {
      const maker = await buildTestApp({
        ...s3(),
        jobConcurrency: 1,
        ffmpegPath: ffmpeg?.path ?? null,
        jobs: { ...QUICK_REPLAY_JOBS, replayWindowMs: 3_200, replayAheadEveryMs: 300 },
      });
      const raw = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-raw-'));
      try {
        const owner = await createUser(maker);
        const classId = await insertClass(maker, owner.id);
        const key = randomUUID();
        await liveRecording(ffmpeg?.path ?? 'ffmpeg', raw);
        await uploadRecording(maker.files.recordings, key, raw, { complete: false });
        const sessionId = await recordedSession(maker, classId, key, { live: true });
        await enqueueReplayAhead(maker.db, sessionId, 0);
        // 16 s uploaded, settled 5 s behind: three windows of 3.2 s, from the copy in the windows' folder.
        const ahead = await aheadRound(maker, sessionId, 3);
        const copy = path.join(windowsDir(maker.config.replaysDir, sessionId), 'raw', key);
        expect(fs.readdirSync(copy).sort()).toEqual(fs.readdirSync(raw).sort());

        // The node uploads the manifest's end and says it is complete; the session ends.
        const manifest = path.join(raw, 'manifest.jsonl');
        const before = fs.statSync(manifest).size;
        const ending = endRecording(raw, 16_000);
        await maker.files.recordings.putBytes(partKey(key, 'manifest.jsonl', before), Buffer.from(ending));
        await maker.files.recordings.putBytes(completeKey(key), Buffer.alloc(0));
        await maker.db
          .update(liveSessions)
          .set({ endedAt: new Date() })
          .where(eq(liveSessions.id, sessionId));
        await enqueueReplay(maker.db, sessionId);
        const { row, seen } = await replayMade(maker, sessionId);
        expect(row?.recordingState).toBe('ready');
        expect(Math.abs((row?.replayDurationMs ?? 0) - 16_000)).toBeLessThan(100);
        // The windows made while it ran were used; only the last two were encoded after the end.
        const fresh = [...seen.keys()].filter((name) => !ahead.has(name));
        expect(fresh.map((name) => name.slice(0, 5)).sort()).toEqual(['00003', '00003', '00004', '00004']);
        await vi.waitFor(async () => expect(await maker.files.recordings.list(key)).toEqual([]), GONE);
        expect(fs.existsSync(windowsDir(maker.config.replaysDir, sessionId))).toBe(false);
      } finally {
        fs.rmSync(raw, { recursive: true, force: true });
        await maker.close();
      }
    },
    180_000,
  );

  it('copies a local installation into the bucket, checked, and copies nothing twice', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-migrate-'));
    try {
      const write = (file: string, bytes: Buffer | string) => {
        fs.mkdirSync(path.dirname(path.join(root, file)), { recursive: true });
        fs.writeFileSync(path.join(root, file), bytes);
      };
      const banner = `banners/${randomUUID()}.jpg`;
      write(`uploads/${banner}`, 'banner bytes');
      write('uploads/banners/stray.txt', 'not a stored key');
      // Past one part: its checksum is the multipart one.
      const big = Buffer.alloc(PART_BYTES + 1000, 7);
      write('replays/77/replay.mp4', big);
      write('replays/77/hls/index.m3u8', '#EXTM3U\n');
      write('replays/78.part-abcd1234/replay.mp4', 'unfinished');
      const lines: string[] = [];
      const areas = [
        {
          name: 'uploads',
          dir: 'uploads',
          to: app.files.uploads,
          keeps: (key: string) => key.endsWith('.jpg'),
        },
        {
          name: 'replays',
          dir: 'replays',
          to: app.files.replays,
          keeps: (key: string) => /^\d+\//.test(key),
        },
      ].map(({ dir, ...area }) => ({ ...area, from: new LocalFileStore(path.join(root, dir)) }));

      const first = await migrateFiles(areas, PART_BYTES, (line) => lines.push(line));
      expect(first).toEqual({ copied: 3, present: 0, bytes: 'banner bytes'.length + big.length + 8 });
      expect(lines.some((line) => line.startsWith('replays 1/2 77/hls/index.m3u8: 옮겼어요'))).toBe(true);
      expect((await app.files.replays.read('77/replay.mp4'))?.equals(big)).toBe(true);
      expect((await app.files.replays.stat('77/replay.mp4'))?.checksum).toMatch(/-2$/);
      expect(await app.files.replays.list('78.part-abcd1234')).toEqual([]);
      expect((await app.inject(`/uploads/${banner}`)).body).toBe('banner bytes');

      // A second run (or one after an interruption) copies only what is missing or does not match.
      await app.files.replays.putBytes('77/hls/index.m3u8', Buffer.from('#EXTM3U damaged'));
      const second = await migrateFiles(areas, PART_BYTES, () => undefined);
      expect(second).toMatchObject({ copied: 1, present: 2 });
      expect((await app.files.replays.read('77/hls/index.m3u8'))?.toString()).toBe('#EXTM3U\n');
      expect(await migrateFiles(areas, PART_BYTES, () => undefined)).toMatchObject({ copied: 0, present: 3 });
    } finally {
      fs.rmSync(root, { recursive: true, force: true });
      await app.files.replays.removeAll('77');
    }
    // Uploads 8 MB in two parts and reads every copy back: slow on a loaded machine.
  }, 90_000);
});
