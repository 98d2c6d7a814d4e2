import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { findFfmpeg, parentDeathWrapper } from './find-tools.ts';
import { FfmpegError, progressReader, runFfmpeg } from './run-ffmpeg.ts';
import { skipNotice } from '../../test/skip-notice.ts';

const ffmpeg = await findFfmpeg(null);
if (!ffmpeg && process.env.CI === 'true') throw new Error('ffmpeg is required when CI=true');
if (!ffmpeg) skipNotice('run-ffmpeg.test.ts: ffmpeg tests SKIPPED, no ffmpeg with libx264 on this machine');
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
/** An encode that runs for a minute unless stopped (-re: at the speed of real time). */
const endless = [
  '-re',
  '-f',
  'lavfi',
  '-i',
  'testsrc2=s=160x90:r=10:d=60',
  '-f',
  'null',
  '-progress',
  'pipe:1',
  '-',
];
const alive = (pid: number) => {
  try {
    return !fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(' ')[2]?.startsWith('Z');
  } catch {
    return false;
  }
};

describe('progressReader', () => {
  it('reads the media time from out_time_us and the older out_time_ms (also microseconds)', () => {
    const times: number[] = [];
    const read = progressReader((ms) => times.push(ms));
    for (const line of [
      'frame=10',
      'out_time_us=1500000',
      'out_time_ms=2500000',
      'out_time_us=N/A',
      'progress=end',
    ]) {
      read(line);
    }
    expect(times).toEqual([1500, 2500]);
  });
});

describe.skipIf(!ffmpeg)('runFfmpeg', () => {
  const bin = ffmpeg?.path ?? 'ffmpeg';

  it('reports progress lines and resolves at the end', async () => {
    const times: number[] = [];
    await runFfmpeg(
      bin,
      ['-f', 'lavfi', '-i', 'testsrc2=s=160x90:r=10:d=2', '-f', 'null', '-progress', 'pipe:1', '-'],
      {
        onLine: progressReader((ms) => times.push(ms)),
      },
    );
    expect(times.at(-1)).toBeGreaterThan(1_500);
  });

  it('rejects with the end of stderr when ffmpeg fails', async () => {
    const failure = runFfmpeg(bin, [
      '-loglevel',
      'error',
      '-i',
      path.join(os.tmpdir(), 'no-such-file.webm'),
      '-f',
      'null',
      '-',
    ]);
    await expect(failure).rejects.toThrow(FfmpegError);
    await expect(failure).rejects.toThrow(/no-such-file/);
  });

  it('an abort kills ffmpeg at once', async () => {
    const controller = new AbortController();
    let started = 0;
    const running = runFfmpeg(bin, endless, { signal: controller.signal, onLine: () => (started += 1) });
    while (started === 0) await sleep(20);
    const at = Date.now();
    controller.abort(new Error('stop'));
    await expect(running).rejects.toThrow('stop');
    expect(Date.now() - at).toBeLessThan(2_000);
  });

  it.skipIf(!parentDeathWrapper())('ffmpeg dies with its parent process (SIGKILL, no clean-up)', async () => {
    const script = fileURLToPath(new URL('../../test/run-ffmpeg-child.ts', import.meta.url));
    const parent = spawn(process.execPath, [script, bin, ...endless], {
      stdio: ['ignore', 'pipe', 'inherit'],
    });
    const ffmpegPid = await new Promise<number>((resolve) =>
      parent.stdout.once('data', (d: Buffer) => resolve(Number(d.toString()))),
    );
    expect(alive(ffmpegPid)).toBe(true);
    parent.kill('SIGKILL');
    const deadline = Date.now() + 5_000;
    while (alive(ffmpegPid) && Date.now() < deadline) await sleep(50);
    expect(alive(ffmpegPid)).toBe(false);
  });
});
