import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { RECORDING_MANIFEST } from '@sea/contract/recording';
import { jobs, liveSessions } from '../src/db/schema.ts';
import { replayAheadKey } from '../src/replays/enqueue-replay.ts';
import { windowsDir } from '../src/replays/replay-files.ts';
import { type FixtureFile, makeRecording, trackEvent } from './recording-fixture.ts';

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** A lecture still being recorded: webcam and microphone from 0 for 16 s, no `trackEnd`, no `end`. */
export async function liveRecording(ffmpegPath: string, dir: string) {
  const cam: FixtureFile = { kind: 'webcamVideo', startMs: 0, lengthMs: 16_000, size: '640x360' };
  const mic: FixtureFile = { kind: 'webcamAudio', startMs: 0, lengthMs: 16_000 };
  await makeRecording(ffmpegPath, dir, [cam, mic], (track) => [
    trackEvent(cam, track(cam)),
    trackEvent(mic, track(mic)),
  ]);
  return { camFile: path.join(dir, `${cam.kind}-0.webm`) };
}

/** The lecture ends as the media service ends it: each track, then the session, at `t`. */
export function endRecording(dir: string, t: number): string {
  const ends = ['webcamVideo-0', 'webcamAudio-1'].map((track) => ({ type: 'trackEnd', t, track }));
  const lines = [...ends, { type: 'end', t }].map((e) => JSON.stringify(e));
  const ending = `${lines.join('\n')}\n`;
  fs.appendFileSync(path.join(dir, RECORDING_MANIFEST), ending);
  return ending;
}

/**
 * The windows in a session's windows folder: name to inode and modification time. A file removed between the
 * listing and its stat (the replay took the windows and cleared the folder) is left out.
 */
export function windowFiles(app: FastifyInstance, sessionId: number): Map<string, string> {
  const dir = windowsDir(app.config.replaysDir, sessionId);
  const names = fs.existsSync(dir) ? fs.readdirSync(dir) : [];
  return new Map(
    names
      .filter((name) => /^\d{5}-\w+\.(mp4|aac)$/.test(name))
      .flatMap((name): [string, string][] => {
        const stats = fs.statSync(path.join(dir, name), { throwIfNoEntry: false });
        return stats ? [[name, `${stats.ino}:${stats.mtimeMs}`]] : [];
      }),
  );
}

/** The session's replay-ahead job, if queued ever. */
async function aheadJob(app: FastifyInstance, sessionId: number) {
  const [job] = await app.db
    .select()
    .from(jobs)
    .where(eq(jobs.key, replayAheadKey(sessionId)));
  return job;
}

/** Waits until the replay-ahead job has done a round and is queued again, with `count` windows made. */
export async function aheadRound(app: FastifyInstance, sessionId: number, count: number) {
  const deadline = Date.now() + 120_000;
  for (;;) {
    const job = await aheadJob(app, sessionId);
    const windows = windowFiles(app, sessionId);
    if (job?.state === 'queued' && windows.size >= 2 * count) return windows;
    if (Date.now() > deadline) throw new Error(`${windows.size / 2} windows made ahead, job ${job?.state}`);
    await sleep(50);
  }
}

/** Waits (at most 20 s) until the replay-ahead job is no longer queued or running; its state then. */
export async function aheadEnded(app: FastifyInstance, sessionId: number) {
  const deadline = Date.now() + 20_000;
  for (;;) {
    const job = await aheadJob(app, sessionId);
    const waiting = job?.state === 'queued' || job?.state === 'running';
    if (!waiting || Date.now() > deadline) return job?.state;
    await sleep(100);
  }
}

/** Waits for the session's replay, noting every window file seen in its folder meanwhile. */
export async function replayMade(app: FastifyInstance, sessionId: number) {
  const seen = new Map<string, string>();
  const deadline = Date.now() + 120_000;
  for (;;) {
    for (const [name, identity] of windowFiles(app, sessionId)) seen.set(name, identity);
    const [row] = await app.db.select().from(liveSessions).where(eq(liveSessions.id, sessionId));
    if (row?.recordingState !== 'processing' && row?.recordingState !== 'recording') return { row, seen };
    if (Date.now() > deadline) throw new Error(`still ${row?.recordingState} at ${row?.recordingProgress}%`);
    await sleep(20);
  }
}
