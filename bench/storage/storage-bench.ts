/**
 * What the object store costs (issue 35), on each driver: the upload throughput of a large file (a recording's
 * size) into the store, the time from a lecture's end to its replay ready, and the latency of a replay's
 * playlist and first segment through the API server. On s3 the raw recording is in the store as a media node
 * uploads it (docs/replay.md), so the replay job downloads it first. A real S3-compatible store: OpenStack Swift on loopback,
 * as the tests start it (harness/object-store.ts). Not a test.
 * Run: npm exec -- node bench/storage/storage-bench.ts
 * (env: DATABASE_URL (else PGlite); BENCH_UPLOAD_MB (1024); BENCH_RECORDING_S (60); BENCH_REQUESTS (20))
 */
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { objectStoreAvailable, startObjectStore } from '../../harness/object-store.ts';
import { insertClass, insertEnrolment } from '../../apps/server/test/classes.ts';
import { buildTestApp, createUser } from '../../apps/server/test/helper.ts';
import { type FixtureFile, makeRecording, trackEvent } from '../../apps/server/test/recording-fixture.ts';
import { uploadRecording } from '../../apps/server/test/recording-store.ts';
import { QUICK_REPLAY_JOBS, recordedSession, sessionUntil } from '../../apps/server/test/replay-sessions.ts';
import { enqueueReplay } from '../../apps/server/src/replays/enqueue-replay.ts';
import { findFfmpeg } from '../../apps/server/src/replays/find-tools.ts';

const UPLOAD_MB = Number(process.env.BENCH_UPLOAD_MB ?? 1024);
const RECORDING_S = Number(process.env.BENCH_RECORDING_S ?? 60);
const REQUESTS = Number(process.env.BENCH_REQUESTS ?? 20);
const CHUNK_BYTES = 8 * 1024 * 1024;

if (!(await objectStoreAvailable())) {
  console.error(
    'OpenStack Swift (swift-proxy, swift-object...) and memcached are needed: not installed here.',
  );
  process.exit(1);
}
const ffmpeg = await findFfmpeg(null);
if (ffmpeg === null) {
  console.error('ffmpeg with libx264 is needed for the replay job: not found.');
  process.exit(1);
}

const load = () => os.loadavg()[0]?.toFixed(1) ?? '';
const rows: Record<string, string>[] = [];
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-storage-bench-'));
const store = await startObjectStore();
const drivers: [string, FastifyInstance][] = [];
try {
  const jobs = { ffmpegPath: ffmpeg.path, jobConcurrency: 1, jobs: QUICK_REPLAY_JOBS };
  drivers.push(['local', await buildTestApp(jobs)]);
  drivers.push(['s3 (Swift)', await buildTestApp({ ...jobs, storage: store.storage })]);

  const big = path.join(work, 'recording.bin');
  writeRandomFile(big, UPLOAD_MB);
  const raw = path.join(work, 'raw');
  await lectureRecording(raw);

  for (const [driver, app] of drivers) {
    const key = `bench-${randomUUID()}/recording.bin`;
    const started = performance.now();
    await app.files.replays.put(key, big);
    const seconds = (performance.now() - started) / 1000;
    await app.files.replays.remove(key);
    rows.push({
      driver,
      measure: `upload of ${UPLOAD_MB} MB`,
      figure: `${(UPLOAD_MB / seconds).toFixed(0)} MB/s (${seconds.toFixed(1)} s)`,
      load: load(),
    });
  }

  for (const [driver, app] of drivers) {
    const teacher = await createUser(app);
    const student = await createUser(app);
    const classId = await insertClass(app, teacher.id);
    await insertEnrolment(app, classId, student.id);
    const mediaKey = randomUUID();
    if (app.config.storage.kind === 's3') {
      // As a media node leaves it: uploaded while the lecture ran, a round every 5 s, then marked complete.
      await uploadRecording(app.files.recordings, mediaKey, raw, { partBytes: roundBytes(raw) });
    } else {
      fs.cpSync(raw, path.join(app.config.recordingsDir, mediaKey), { recursive: true });
    }
    const sessionId = await recordedSession(app, classId, mediaKey);
    const ended = performance.now();
    await enqueueReplay(app.db, sessionId);
    await sessionUntil(app, sessionId, (row) => row.recordingState === 'ready', 30 * 60_000);
    rows.push({
      driver,
      measure: `end to ready, ${RECORDING_S} s lecture`,
      figure: `${((performance.now() - ended) / 1000).toFixed(1)} s`,
      load: load(),
    });

    const base = await app.listen({ host: '127.0.0.1', port: 0 });
    const { hls_url: playlistUrl } = app.replayUrls.forViewer(student.id).urls(sessionId);
    const playlist = new URL(playlistUrl, base);
    const first = (await (await fetch(playlist)).text())
      .split('\n')
      .find((line) => line.startsWith('segment-'));
    if (first === undefined) throw new Error(`no segment in ${playlist.href}`);
    const segment = new URL(first, playlist);
    for (const [name, url] of [
      ['playlist', playlist],
      ['first segment', segment],
    ] as const) {
      const times: number[] = [];
      let bytes = 0;
      for (let i = 0; i < REQUESTS; i += 1) {
        const started = performance.now();
        const answer = await fetch(url);
        if (answer.status !== 200) throw new Error(`${url.href} answered ${answer.status}`);
        bytes = (await answer.arrayBuffer()).byteLength;
        times.push(performance.now() - started);
      }
      times.sort((a, b) => a - b);
      const at = (p: number) =>
        (times[Math.min(times.length - 1, Math.floor(p * times.length))] ?? 0).toFixed(1);
      rows.push({
        driver,
        measure: `${name} (${(bytes / 1024).toFixed(1)} KB), p50 / p95`,
        figure: `${at(0.5)} / ${at(0.95)} ms`,
        load: load(),
      });
    }
  }
} finally {
  await Promise.all(drivers.map(([, app]) => app.close()));
  await store.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
console.log(`\n${os.cpus().length} CPUs, ${REQUESTS} requests per URL, one at a time`);
console.table(rows);

/** The bytes of the recording's files (all together) a media node's 5 s round uploads. */
function roundBytes(dir: string): number {
  const bytes = fs.readdirSync(dir).reduce((sum, name) => sum + fs.statSync(path.join(dir, name)).size, 0);
  return Math.max(1, Math.ceil((bytes * 5) / RECORDING_S));
}

/** `megabytes` of random bytes (an encoded recording does not compress), written in chunks. */
function writeRandomFile(file: string, megabytes: number): void {
  const fd = fs.openSync(file, 'w');
  try {
    for (let written = 0; written < megabytes * 1024 * 1024; written += CHUNK_BYTES) {
      fs.writeSync(fd, randomBytes(CHUNK_BYTES));
    }
  } finally {
    fs.closeSync(fd);
  }
}

/** A raw recording of a webcam lecture (640x360 picture, microphone) of RECORDING_S seconds. */
async function lectureRecording(dir: string): Promise<void> {
  const lengthMs = RECORDING_S * 1000;
  const cam: FixtureFile = { kind: 'webcamVideo', startMs: 0, lengthMs, size: '640x360' };
  const mic: FixtureFile = { kind: 'webcamAudio', startMs: 0, lengthMs };
  await makeRecording(ffmpeg?.path ?? 'ffmpeg', dir, [cam, mic], (track) => [
    trackEvent(cam, track(cam)),
    trackEvent(mic, track(mic)),
    { type: 'end', t: lengthMs },
  ]);
}
