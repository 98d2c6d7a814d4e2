import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type FixtureFile, makeRecording, trackEvent } from '../../test/recording-fixture.ts';
import { AdtsError, adtsFrames, joinAdts } from './adts.ts';
import { type MediaProbe, planComposition } from './composition-plan.ts';
import { audioArgs } from './ffmpeg-args.ts';
import { findFfmpeg } from './find-tools.ts';
import type { Recording } from './recording-manifest.ts';
import { replayWindows, windowParts } from './replay-windows.ts';

const ffmpeg = await findFfmpeg(null);
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'replay-windows-'));
afterAll(() => fs.rmSync(work, { recursive: true, force: true }));

const recording = (lengthMs: number): Recording => ({
  teacherNickname: '파도선생',
  startedAt: '2026-11-25T01:00:00.000Z',
  tracks: [{ track: 'm', kind: 'webcamAudio', file: 'room/webcamAudio-0.webm', startMs: 0, endMs: lengthMs }],
  pauses: [],
  stalls: [],
  endMs: lengthMs,
  skippedLines: 0,
});
const probes = (lengthMs: number) =>
  new Map<string, MediaProbe | null>([
    ['room/webcamAudio-0.webm', { endMs: lengthMs, width: null, height: null }],
  ]);

describe('replay windows', () => {
  it('cuts a replay into windows of whole frames; a last one shorter than a second joins the one before', () => {
    expect(replayWindows(10_000, 3_200)).toEqual([
      { index: 0, fromMs: 0, untilMs: 3_200, last: false },
      { index: 1, fromMs: 3_200, untilMs: 6_400, last: false },
      { index: 2, fromMs: 6_400, untilMs: 10_000, last: true },
    ]);
    expect(replayWindows(9_600, 3_200).at(-1)).toEqual({
      index: 2,
      fromMs: 6_400,
      untilMs: 9_600,
      last: true,
    });
    expect(replayWindows(500, 3_200)).toEqual([{ index: 0, fromMs: 0, untilMs: 500, last: true }]);
    expect(replayWindows(0, 3_200)).toEqual([]);
    expect(() => replayWindows(10_000, 3_000)).toThrow(/multiple of 1600/);
  });

  it('encodes a window’s sound with its neighbours’ edges and keeps only its own AAC frames', () => {
    const plan = planComposition(recording(10_000), probes(10_000));
    const [first, second, last] = replayWindows(plan.durationMs, 3_200);
    if (!first || !second || !last) throw new Error('three windows expected');
    // 3.2 s is 150 frames of 1024 samples; the first window drops only the encoder's priming frame.
    expect(windowParts(plan, first)).toMatchObject({ dropFrames: 1, keepFrames: 150 });
    expect(windowParts(plan, first).audio.durationMs).toBe(3_264);
    // The next ones start 64 ms (three frames) early and drop those too.
    const middle = windowParts(plan, second);
    expect(middle).toMatchObject({ dropFrames: 4, keepFrames: 150 });
    expect(middle.audio.audio).toMatchObject([{ atMs: 0, untilMs: 3_328, skipMs: 3_136 }]);
    expect(middle.video.durationMs).toBe(3_200);
    expect(windowParts(plan, last)).toMatchObject({ dropFrames: 4, keepFrames: null });
  });

  it('refuses bytes that are not ADTS frames, and a piece shorter than what is kept', async () => {
    expect(() => adtsFrames(Buffer.from('not aac at all'))).toThrow(AdtsError);
    const frame = Buffer.from([0xff, 0xf1, 0x50, 0x80, 0x01, 0x3f, 0xfc, 0x21, 0x00]);
    expect(adtsFrames(Buffer.concat([frame, frame]))).toHaveLength(2);
    fs.writeFileSync(path.join(work, 'two.aac'), Buffer.concat([frame, frame]));
    const out = path.join(work, 'out.aac');
    await expect(joinAdts([{ file: path.join(work, 'two.aac'), drop: 1, keep: 2 }], out)).rejects.toThrow(
      AdtsError,
    );
    expect(await joinAdts([{ file: path.join(work, 'two.aac'), drop: 1, keep: null }], out)).toBe(1);
  });

  it.skipIf(!ffmpeg)(
    'sound encoded window by window and joined matches one run across the joins: no click, no shift',
    async () => {
      const ffmpegPath = ffmpeg?.path ?? 'ffmpeg';
      const mic: FixtureFile = { kind: 'webcamAudio', startMs: 0, lengthMs: 10_000, frequency: 440 };
      await makeRecording(ffmpegPath, path.join(work, 'room'), [mic], (track) => [
        trackEvent(mic, track(mic)),
      ]);
      const plan = planComposition(recording(10_000), probes(10_000));
      const encode = async (windowMs: number, name: string) => {
        const pieces = [];
        for (const window of replayWindows(plan.durationMs, windowMs)) {
          const parts = windowParts(plan, window);
          const file = path.join(work, `${name}-${window.index}.aac`);
          execFileSync(ffmpegPath, audioArgs(parts.audio, { inputDir: work, output: file }));
          pieces.push({ file, drop: parts.dropFrames, keep: parts.keepFrames });
        }
        const joined = path.join(work, `${name}.aac`);
        await joinAdts(pieces, joined);
        const pcm = execFileSync(ffmpegPath, ['-v', 'error', '-i', joined, '-ac', '1', '-f', 'f32le', '-'], {
          maxBuffer: 64 * 1024 * 1024,
        });
        return new Float32Array(pcm.buffer, pcm.byteOffset, pcm.byteLength / 4);
      };
      const whole = await encode(11_200, 'whole');
      const windowed = await encode(1_600, 'windowed');
      expect(windowed.length).toBe(whole.length);
      // ffmpeg reads an Opus file it seeks into (a window from 80 ms of it on) 48 samples (1 ms) off the way it
      // reads it from its start (the pre-skip in whole milliseconds): from the second window on, the sound is
      // that much off the one run's. No more: a frame too many or too few would be 1024.
      const difference = (lag: number, from: number, until: number) => {
        let signal = 0;
        let noise = 0;
        for (let i = from; i < until; i += 1) {
          signal += (whole[i + lag] ?? 0) ** 2;
          noise += ((whole[i + lag] ?? 0) - (windowed[i] ?? 0)) ** 2;
        }
        return noise === 0 ? Infinity : 10 * Math.log10(signal / noise);
      };
      let lag = 0;
      for (let l = -1_100; l <= 1_100; l += 1) {
        if (difference(l, 96_000, 144_000) > difference(lag, 96_000, 144_000)) lag = l;
      }
      expect(Math.abs(lag)).toBeLessThanOrEqual(48);
      // Over every 10 ms after the first join: the joins (every 1.6 s) are no worse than AAC's own noise.
      const worst = { db: Infinity, atMs: 0 };
      for (let from = 1_700 * 48; from + 480 <= whole.length - 4_800; from += 480) {
        const db = difference(lag, from, from + 480);
        if (db < worst.db) Object.assign(worst, { db, atMs: from / 48 });
      }
      expect(worst.db, `worst at ${worst.atMs} ms`).toBeGreaterThan(20);
    },
    60_000,
  );
});
