import { randomUUID } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { eq } from 'drizzle-orm';
import { expect, it } from 'vitest';
import { insertClass } from '../../test/classes.ts';
import { buildTestApp, createUser } from '../../test/helper.ts';
import { type FixtureFile, makeRecording, trackEvent } from '../../test/recording-fixture.ts';
import { jobs, liveSessions } from '../db/schema.ts';
import { enqueueReplay } from './enqueue-replay.ts';
import { findFfmpeg } from './find-tools.ts';
import { windowsDir } from './replay-files.ts';
import { skipNotice } from '../../test/skip-notice.ts';

const ffmpeg = await findFfmpeg(null);
if (!ffmpeg && process.env.CI === 'true') throw new Error('ffmpeg is required when CI=true');
if (!ffmpeg) skipNotice('replay-close.test.ts: SKIPPED, no ffmpeg with libx264 on this machine');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Processes whose command line mentions `text` (ffmpeg names its work folder in its arguments). */
function processesWith(text: string): number[] {
  return fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .filter((pid) => {
      try {
        return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes(text);
      } catch {
        return false; // gone meanwhile
      }
    })
    .map(Number);
}

it.skipIf(!ffmpeg)(
  'closing the server mid-encode kills ffmpeg and gives the job back for the next start',
  async () => {
    let atClose: unknown;
    let sessionId = 0;
    const tuning = { jobConcurrency: 1, jobs: { pollMs: 100, leaseMs: 30_000, retryDelayMs: 100 } };
    const app = await buildTestApp(tuning, (app) => {
      // Added after the app's own hooks: runs after the worker stopped (preClose), before the database closes.
      app.addHook('onClose', async () => {
        [atClose] = await app.db
          .select({ state: jobs.state, attempts: jobs.attempts, lockedBy: jobs.lockedBy })
          .from(jobs)
          .where(eq(jobs.key, `replay:${sessionId}`));
      });
    });
    const teacher = await createUser(app);
    const classId = await insertClass(app, teacher.id);
    const key = randomUUID();
    const cam: FixtureFile = { kind: 'webcamVideo', startMs: 0, lengthMs: 30_000 };
    await makeRecording(
      ffmpeg?.path ?? 'ffmpeg',
      path.join(app.config.recordingsDir, key),
      [cam],
      (track) => [trackEvent(cam, track(cam)), { type: 'end', t: 30_000 }],
    );
    const [session] = await app.db
      .insert(liveSessions)
      .values({
        classId,
        mediaKey: key,
        nodeId: 'media-1',
        startedAt: new Date(),
        recordingState: 'recording',
      })
      .returning({ id: liveSessions.id });
    sessionId = session?.id ?? 0;
    await enqueueReplay(app.db, sessionId);

    // Wait until ffmpeg encodes (the progress moves past the measuring share).
    const deadline = Date.now() + 120_000;
    for (;;) {
      const [row] = await app.db.select().from(liveSessions).where(eq(liveSessions.id, sessionId));
      const encoding = processesWith(windowsDir(app.config.replaysDir, sessionId)).length > 0;
      if ((row?.recordingProgress ?? 0) > 3 && encoding) break;
      if (row?.recordingState !== 'processing' || Date.now() > deadline)
        throw new Error('the encode was not seen');
      await sleep(50);
    }

    await app.close();
    expect(atClose).toEqual({ state: 'queued', attempts: 0, lockedBy: null });
    expect(processesWith(windowsDir(app.config.replaysDir, sessionId))).toEqual([]);
    // The half-made replay is gone, and so is the window ffmpeg was writing (only whole windows are kept, for
    // the next start); the raw recording waits for the next start.
    expect(fs.readdirSync(app.config.replaysDir)).toEqual([
      path.basename(windowsDir(app.config.replaysDir, sessionId)),
    ]);
    const windows = fs.readdirSync(windowsDir(app.config.replaysDir, sessionId));
    expect(windows.filter((name) => name.endsWith('.tmp'))).toEqual([]);
    expect(fs.existsSync(path.join(app.config.recordingsDir, key, `${cam.kind}-0.webm`))).toBe(true);
  },
  180_000,
);
