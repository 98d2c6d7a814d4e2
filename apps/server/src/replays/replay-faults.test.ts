import { execFileSync } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it, onTestFinished } from 'vitest';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';
import { insertClass } from '../../test/classes.ts';
import {
  type FixtureFile,
  makeRecording,
  probe,
  trackEvent,
  webcamRecording,
} from '../../test/recording-fixture.ts';
import {
  QUICK_REPLAY_JOBS,
  recordedSession,
  replayJobRow,
  sessionRow,
  sessionUntil,
} from '../../test/replay-sessions.ts';
import { skipNotice } from '../../test/skip-notice.ts';
import { enqueueReplay } from './enqueue-replay.ts';
import { type Ffmpeg, findFfmpeg } from './find-tools.ts';
import { readReplayTimeline, REPLAY_FILES, replayDir } from './replay-files.ts';
import { toReplayMs } from './replay-timeline.ts';

const ffmpeg: Ffmpeg | null = await findFfmpeg(null);
if (!ffmpeg && process.env.CI === 'true') throw new Error('ffmpeg is required when CI=true');
if (!ffmpeg) skipNotice('replay-faults.test.ts: SKIPPED, no ffmpeg with libx264 on this machine');
const root = process.getuid?.() === 0;
if (ffmpeg && !root)
  skipNotice('replay-faults.test.ts: the full-disk tests are SKIPPED, they mount a tmpfs as root');

/** Encoding takes seconds on a busy two-core machine; each case here encodes a 3 s recording once or twice. */
const CASE_MS = 180_000;
/** The replays' disk: a tmpfs this big, when the test runs as root. */
const DISK_BYTES = 40 * 1024 * 1024;

let app: FastifyInstance;
let teacher: TestUser;
let classId: number;
let tools: string;
let replaysDir: string;
let mounted = false;

/**
 * A stand-in for ffmpeg that the test controls (given as FFMPEG_PATH): it runs the real one, but an encode
 * (a run with `-progress`) of the recording whose key is in `hang` hangs without a word, and one of the key in
 * `fill` first fills the replays' disk (the file named in `fill-target`).
 */
function writeStandIn(dir: string, real: string): string {
  const file = path.join(dir, 'ffmpeg');
  const script = `#!/bin/sh
here=$(dirname "$0")
args="$*"
encodes() {
  [ -s "$here/$1" ] || return 1
  case "$args" in *-progress*) ;; *) return 1 ;; esac
  case "$args" in *"$(cat "$here/$1")"*) return 0 ;; esac
  return 1
}
if encodes hang; then exec sleep 600; fi
if encodes fill; then head -c 1G /dev/zero > "$(cat "$here/fill-target")" 2>/dev/null; fi
exec '${real}' "$@"
`;
  fs.writeFileSync(file, script, { mode: 0o755 });
  return file;
}

/** A 3 s recording (webcam and microphone) in `RECORDINGS_DIR/{key}`. */
async function recording(key: string): Promise<string> {
  const dir = path.join(app.config.recordingsDir, key);
  await webcamRecording(ffmpeg?.path ?? 'ffmpeg', dir);
  return dir;
}

async function queued(key: string): Promise<number> {
  const sessionId = await recordedSession(app, classId, key);
  await enqueueReplay(app.db, sessionId);
  return sessionId;
}

const ready = (sessionId: number) => sessionUntil(app, sessionId, (row) => row.recordingState === 'ready');
const saying = (sessionId: number, pattern: RegExp) =>
  sessionUntil(app, sessionId, (row) => pattern.test(row.recordingError ?? ''));

describe.skipIf(!ffmpeg)('replay job under faults (ffmpeg)', () => {
  beforeAll(async () => {
    tools = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-ffmpeg-'));
    replaysDir = path.join(tools, 'replays');
    fs.mkdirSync(replaysDir);
    if (root) {
      execFileSync('mount', ['-t', 'tmpfs', '-o', `size=${DISK_BYTES}`, 'tmpfs', replaysDir]);
      mounted = true;
    }
    fs.writeFileSync(path.join(tools, 'fill-target'), path.join(replaysDir, 'filler'));
    app = await buildTestApp({
      jobConcurrency: 1,
      ffmpegPath: writeStandIn(tools, ffmpeg?.path ?? 'ffmpeg'),
      replaysDir,
      jobs: QUICK_REPLAY_JOBS,
    });
    teacher = await createUser(app, { nickname: '파도선생' });
    classId = await insertClass(app, teacher.id);
  });
  afterAll(async () => {
    await app?.close();
    if (mounted) execFileSync('umount', [replaysDir]);
    fs.rmSync(tools, { recursive: true, force: true });
  });

  it(
    'a hung encoder is killed by the watchdog and retried; the queue goes on, and it is made once it runs',
    async () => {
      const [hungKey, nextKey] = [randomUUID(), randomUUID()];
      await Promise.all([recording(hungKey), recording(nextKey)]);
      fs.writeFileSync(path.join(tools, 'hang'), hungKey);
      onTestFinished(() => fs.rmSync(path.join(tools, 'hang'), { force: true }));
      const hung = await queued(hungKey);
      const next = await queued(nextKey);
      const stalled = await saying(hung, /인코딩이 \d+초 동안 멈춰서 중단했어요/);
      expect(stalled.recordingState).toBe('processing');
      // One job at a time, and the hung one does not hold the queue: the next lecture's replay is made.
      expect((await ready(next)).recordingError).toBeNull();
      expect((await sessionRow(app, hung)).recordingState).toBe('processing');
      expect(fs.readdirSync(replaysDir).filter((name) => name.startsWith(`${hung}.part-`))).toEqual([]);
      fs.rmSync(path.join(tools, 'hang'));
      const made = await ready(hung);
      expect(made.recordingError).toBeNull();
      expect((await replayJobRow(app, hung))?.attempts).toBeGreaterThan(1);
      expect(fs.existsSync(path.join(app.config.recordingsDir, hungKey))).toBe(false);
    },
    CASE_MS,
  );

  it(
    'a missing ffmpeg is said and waited for; once it is back, the replay is made',
    async () => {
      const key = randomUUID();
      const raw = await recording(key);
      const standIn = path.join(tools, 'ffmpeg');
      fs.renameSync(standIn, `${standIn}.away`);
      let sessionId: number;
      try {
        sessionId = await queued(key);
        const waiting = await saying(sessionId, /ffmpeg를 실행할 수 없어/);
        expect(waiting.recordingState).toBe('processing');
        expect(fs.existsSync(raw)).toBe(true);
      } finally {
        fs.renameSync(`${standIn}.away`, standIn);
      }
      expect(Math.abs(((await ready(sessionId)).replayDurationMs ?? 0) - 3_000)).toBeLessThan(100);
    },
    CASE_MS,
  );

  it(
    'a truly damaged recording fails at once as damaged, and its raw files are kept',
    async () => {
      const key = randomUUID();
      const raw = await recording(key);
      for (const name of fs.readdirSync(raw).filter((file) => file.endsWith('.webm'))) {
        const file = path.join(raw, name);
        fs.writeFileSync(file, randomBytes(fs.statSync(file).size));
      }
      const sessionId = await queued(key);
      const failed = await sessionUntil(app, sessionId, (row) => row.recordingState !== 'processing');
      expect(failed).toMatchObject({ recordingState: 'failed' });
      expect(failed.recordingError).toMatch(/녹화 파일이 손상되어/);
      expect(await replayJobRow(app, sessionId)).toMatchObject({ state: 'failed', attempts: 1 });
      expect(fs.readdirSync(raw).length).toBeGreaterThan(1);

      // The teacher's '다시 만들기' queues it again (here with its files mended), and it is made.
      await recording(key);
      const response = await app.inject({
        method: 'POST',
        url: `/api/classes/${classId}/sessions/${sessionId}/remake`,
        headers: bearer(teacher),
      });
      expect(response.statusCode).toBe(200);
      expect(response.json().data.recording).toMatchObject({ state: 'processing', error: null });
      await ready(sessionId);
      const again = await app.inject({
        method: 'POST',
        url: `/api/classes/${classId}/sessions/${sessionId}/remake`,
        headers: bearer(teacher),
      });
      expect(again.statusCode).toBe(409);
    },
    CASE_MS,
  );

  it.runIf(root)(
    'a replays disk too full to start waits with the numbers, and the replay is made once space returns',
    async () => {
      const key = randomUUID();
      await recording(key);
      const filler = path.join(replaysDir, 'filler');
      fs.writeFileSync(filler, Buffer.alloc(DISK_BYTES - 8 * 1024 * 1024));
      try {
        const sessionId = await queued(key);
        const waiting = await saying(
          sessionId,
          /저장할 공간이 부족해 기다리고 있어요 \(필요 [\d.]+ MB, 남은 공간 [\d.]+ MB\)/,
        );
        expect(waiting.recordingState).toBe('processing');
        fs.rmSync(filler);
        expect((await ready(sessionId)).recordingError).toBeNull();
      } finally {
        fs.rmSync(filler, { force: true });
      }
    },
    CASE_MS,
  );

  it.runIf(root)(
    'a replays disk that fills during the encode is told as full, not as damage, and retried when space returns',
    async () => {
      const key = randomUUID();
      const raw = await recording(key);
      fs.writeFileSync(path.join(tools, 'fill'), key);
      const filler = path.join(replaysDir, 'filler');
      try {
        const sessionId = await queued(key);
        const full = await saying(
          sessionId,
          /저장 공간이 가득 찼어요 \(필요 [\d.]+ MB, 남은 공간 [\d.]+ [KM]?B\)/,
        );
        expect(full.recordingState).toBe('processing');
        expect(fs.readdirSync(replaysDir).filter((name) => name.includes('.part-'))).toEqual([]);
        expect(fs.existsSync(raw)).toBe(true);
        fs.rmSync(path.join(tools, 'fill'));
        fs.rmSync(filler);
        const made = await ready(sessionId);
        expect(made.recordingError).toBeNull();
        const { durationS } = await probe(path.join(replayDir(replaysDir, sessionId), REPLAY_FILES.mp4));
        expect(Math.abs(durationS - 3)).toBeLessThan(0.5);
      } finally {
        fs.rmSync(path.join(tools, 'fill'), { force: true });
        fs.rmSync(filler, { force: true });
      }
    },
    CASE_MS,
  );

  it(
    'a recording with a stretch not written is made of its parts, the gap cut, told and its chat time kept',
    async () => {
      // The webcam and the microphone were on 0-10 s, but their files hold only 0-3 s and 7-10 s: the teacher
      // paused 3-4 s, then the disk was full until 7 s, and the media service went on with new files once it
      // had room. The replay cuts both; the gap (4-7 s) sits at 3 s of it.
      const key = randomUUID();
      const dir = path.join(app.config.recordingsDir, key);
      const files: FixtureFile[] = [
        { kind: 'webcamVideo', startMs: 0, lengthMs: 3_000 },
        { kind: 'webcamAudio', startMs: 0, lengthMs: 3_000 },
        { kind: 'webcamVideo', startMs: 7_000, lengthMs: 3_000 },
        { kind: 'webcamAudio', startMs: 7_000, lengthMs: 3_000 },
      ];
      const [cam1, mic1, cam2, mic2] = files as [FixtureFile, FixtureFile, FixtureFile, FixtureFile];
      await makeRecording(ffmpeg?.path ?? 'ffmpeg', dir, files, (track) => [
        trackEvent(cam1, track(cam1)),
        trackEvent(mic1, track(mic1)),
        { type: 'pause', t: 3_000 },
        { type: 'resume', t: 4_000 },
        // The same tracks go on in new files.
        { ...trackEvent(cam2, track(cam2)), track: track(cam1) },
        { ...trackEvent(mic2, track(mic2)), track: track(mic1) },
        { type: 'trackEnd', t: 10_000, track: track(cam1) },
        { type: 'trackEnd', t: 10_000, track: track(mic1) },
        { type: 'end', t: 10_000 },
      ]);
      const sessionId = await queued(key);
      const made = await ready(sessionId);
      // The files' last audio frame may run a few milliseconds past 3 s.
      expect(Math.abs((made.replayDurationMs ?? 0) - 6_000)).toBeLessThan(100);
      const timeline = await readReplayTimeline(app.files.replays, sessionId);
      expect(timeline?.gaps).toHaveLength(1);
      expect(timeline?.gaps?.[0]?.fromMs).toBe(4_000);
      expect(timeline?.gaps?.[0]?.untilMs).toBe(7_000);
      // A chat message of the gap (5 s) stays, where the gap was cut.
      expect(timeline && Math.abs(toReplayMs(timeline, 5_000) - 3_000)).toBeLessThan(100);
      const response = await app.inject({
        method: 'GET',
        url: `/api/classes/${classId}/sessions/${sessionId}`,
        headers: bearer(teacher),
      });
      // Told in lecture time, and marked where the replay cuts it: after 3 s of it, the pause cut too.
      const [gap, ...more] = response.json().data.recording.gaps;
      expect(more).toEqual([]);
      expect({ from_s: gap.from_s, until_s: gap.until_s }).toEqual({ from_s: 4, until_s: 7 });
      expect(Math.abs(gap.at_s - 3)).toBeLessThan(0.1);
    },
    CASE_MS,
  );
});
