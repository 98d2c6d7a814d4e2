// How long after a lecture ends its replay is ready, when its windows were encoded while it ran
// (replay-ahead.ts) as against encoded after it (the replay job alone).
//
//   npm exec -- node bench/replay/ready-after-class.ts [--minutes 10,60,120] [--before] [--keep]
//
// For each length a synthetic lecture (the `lecture` scenario: slides, webcam off for a tenth, two sounds) is
// recorded as the media service writes it. While it "runs", the windows the replay-ahead job would have made by
// its end are encoded (every window ending 5 s before the last media), timed but not part of the figure. Then
// the lecture ends, and what the replay job does from there is timed: measuring the files, planning, encoding
// the windows not made yet, joining them and the HLS copy, checking the MP4's length. `--before` also times
// the replay job without windows made ahead (one encode of everything after the end; only sensible for short
// lectures). Each ffmpeg run takes ffmpeg's own thread count, as the replay job does.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import { findFfmpeg, findHangulFont } from '../../apps/server/src/replays/find-tools.ts';
import { SETTLE_MS } from '../../apps/server/src/replays/replay-ahead.ts';
import { encodeReplay, encodeWindows, type WindowRun } from '../../apps/server/src/replays/replay-encode.ts';
import { REPLAY_FILES } from '../../apps/server/src/replays/replay-files.ts';
import { WINDOW_GRID_MS, WINDOW_MS } from '../../apps/server/src/replays/replay-windows.ts';
import { childrenCpuS, loadAverage, makeFiles, planFiles, scenarios } from './synthetic-recording.ts';

const { values } = parseArgs({
  options: {
    minutes: { type: 'string', default: '10' },
    before: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const ffmpeg = await findFfmpeg(process.env.FFMPEG_PATH ?? null);
if (!ffmpeg) throw new Error('no ffmpeg with libx264');
const ffmpegPath = ffmpeg.path;
const font = await findHangulFont();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-ready-bench-'));
const seconds = (from: number) => ((performance.now() - from) / 1000).toFixed(1);

console.log(
  `ffmpeg: ${ffmpegPath}; windows of ${WINDOW_MS / 1000} s; ${loadAverage()} on ${os.cpus().length} cores`,
);
for (const minutes of values.minutes.split(',').map(Number)) {
  const lengthS = minutes * 60;
  const dir = path.join(work, `${minutes}min`);
  const sources = scenarios(lengthS)['lecture'] ?? [];
  const recording = await makeFiles(ffmpegPath, dir, sources, lengthS);
  const run = (windowsDir: string, windowMs = WINDOW_MS): WindowRun => ({
    ffmpegPath,
    inputDir: dir,
    fontFile: font,
    windowsDir,
    windowMs,
    threads: null,
    signal: new AbortController().signal,
    stallMinMs: 60_000,
    stallMaxMs: 600_000,
  });

  // While it runs: no `end` yet, and the streams still on have no `trackEnd`.
  const live = {
    ...recording,
    endMs: null,
    tracks: recording.tracks.map((t) => (t.endMs === recording.endMs ? { ...t, endMs: null } : t)),
  };
  const livePlan = await planFiles(ffmpegPath, dir, live);
  const windowsDir = path.join(dir, 'windows');
  const aheadStarted = performance.now();
  const aheadCpu = childrenCpuS();
  const made = await encodeWindows(livePlan, run(windowsDir), livePlan.durationMs - SETTLE_MS);
  console.log(
    `${minutes} min: ${made.length} windows made while it ran (${seconds(aheadStarted)} s wall, ` +
      `${(childrenCpuS() - aheadCpu).toFixed(0)} s CPU); ${loadAverage()}`,
  );

  // The end: what the replay job does from here.
  const ended = performance.now();
  const endCpu = childrenCpuS();
  const plan = await planFiles(ffmpegPath, dir, recording);
  const planned = performance.now();
  const out = path.join(dir, 'replay');
  fs.mkdirSync(path.join(out, REPLAY_FILES.hlsDir), { recursive: true });
  let encodedAt = planned;
  let encoded = 0;
  await encodeReplay(plan, out, {
    ...run(windowsDir),
    onEncoded: async () => {
      encodedAt = performance.now();
      encoded = fs.readdirSync(windowsDir).filter((name) => name.endsWith('.mp4')).length - made.length;
    },
  });
  console.log(
    `${minutes} min: ready ${seconds(ended)} s after the end (measuring and planning ${((planned - ended) / 1000).toFixed(1)} s, ${encoded} windows encoded ` +
      `${((encodedAt - planned) / 1000).toFixed(1)} s, joining, HLS and checking ${seconds(encodedAt)} s; ` +
      `${(childrenCpuS() - endCpu).toFixed(1)} s CPU); ${loadAverage()}`,
  );

  if (values.before) {
    const beforeOut = path.join(dir, 'before');
    fs.mkdirSync(path.join(beforeOut, REPLAY_FILES.hlsDir), { recursive: true });
    const started = performance.now();
    const beforePlan = await planFiles(ffmpegPath, dir, recording);
    const wholeMs = Math.ceil(beforePlan.durationMs / WINDOW_GRID_MS) * WINDOW_GRID_MS;
    await encodeReplay(beforePlan, beforeOut, {
      ...run(path.join(dir, 'before-windows'), wholeMs),
      onEncoded: async () => undefined,
    });
    console.log(
      `${minutes} min, nothing made ahead: ready ${seconds(started)} s after the end; ${loadAverage()}`,
    );
  }
  if (!values.keep) fs.rmSync(dir, { recursive: true, force: true });
}
if (values.keep) console.log(`files kept in ${work}`);
else fs.rmSync(work, { recursive: true, force: true });
