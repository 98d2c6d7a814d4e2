// Replay processing speed and picture quality: how many times faster than real time one core turns a raw
// recording into its replay, window by window as the replay job does (replay-windows.ts: each window's picture
// and sound encoded, then joined by copying and remuxed into HLS), and how the windows' picture compares with
// one encode of the whole recording (SSIM, ffmpeg's `ssim` filter).
//
//   taskset -c 0 npm exec -- node bench/replay/run-replay-bench.ts [--seconds 120] [--scenario lecture,webcam]
//     [--compare] [--keep]
//
// Each scenario's recording is made first with ffmpeg from lavfi sources (VP8/Opus WebM, as the media service
// records). Every ffmpeg runs with one thread; CPU time (user + system of the finished ffmpeg processes) is what
// one core spends, wall time depends on what else the machine runs (load average shown).
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs } from 'node:util';
import type { CompositionPlan } from '../../apps/server/src/replays/composition-plan.ts';
import { ENCODING } from '../../apps/server/src/replays/ffmpeg-args.ts';
import { findFfmpeg, findHangulFont } from '../../apps/server/src/replays/find-tools.ts';
import { encodeReplay } from '../../apps/server/src/replays/replay-encode.ts';
import { REPLAY_FILES } from '../../apps/server/src/replays/replay-files.ts';
import { WINDOW_GRID_MS, WINDOW_MS } from '../../apps/server/src/replays/replay-windows.ts';
import { childrenCpuS, loadAverage, makeFiles, planFiles, scenarios } from './synthetic-recording.ts';

const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '120' },
    scenario: { type: 'string', default: 'lecture,webcam' },
    // Also encode the whole recording as one window and compare the pictures (SSIM).
    compare: { type: 'boolean', default: false },
    keep: { type: 'boolean', default: false },
  },
});
const seconds = Number(values.seconds);
const ffmpeg = await findFfmpeg(process.env.FFMPEG_PATH ?? null);
if (!ffmpeg) throw new Error('no ffmpeg with libx264');
const ffmpegPath = ffmpeg.path;
const font = await findHangulFont();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-replay-bench-'));

/** Encodes the plan as the replay job does, in windows of `windowMs`; CPU and wall seconds, and the MP4. */
async function encode(plan: CompositionPlan, dir: string, name: string, windowMs: number) {
  const out = path.join(dir, name);
  fs.mkdirSync(path.join(out, REPLAY_FILES.hlsDir), { recursive: true });
  const cpuBefore = childrenCpuS();
  const started = performance.now();
  let encodedAt = started;
  await encodeReplay(plan, out, {
    ffmpegPath,
    inputDir: dir,
    fontFile: font,
    windowsDir: path.join(out, 'windows'),
    windowMs,
    threads: 1,
    signal: new AbortController().signal,
    stallMinMs: 60_000,
    stallMaxMs: 600_000,
    onEncoded: async () => {
      encodedAt = performance.now();
    },
  });
  const mp4 = path.join(out, REPLAY_FILES.mp4);
  return {
    cpuS: childrenCpuS() - cpuBefore,
    encodeS: (encodedAt - started) / 1000,
    joinS: (performance.now() - encodedAt) / 1000,
    mp4,
    mbit: (fs.statSync(mp4).size * 8) / 1e6 / seconds,
  };
}

/** The mean SSIM of two videos' pictures, every frame (ffmpeg's `ssim` filter: `All`, 1 = the same). */
function ssim(a: string, b: string): string {
  const run = spawnSync(
    ffmpegPath,
    ['-hide_banner', '-nostats', '-i', a, '-i', b, '-lavfi', 'ssim', '-f', 'null', '-'],
    {
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    },
  );
  return /All:([\d.]+)/.exec(run.stderr)?.[1] ?? `unknown (${run.status})`;
}

console.log(
  `ffmpeg: ${ffmpegPath} (${ffmpeg.source}); ${ENCODING.preset}, ${ENCODING.fps} fps, 1280x720; ` +
    `${seconds} s of lecture in windows of ${WINDOW_MS / 1000} s`,
);
console.log(`${loadAverage()} before, on ${os.cpus().length} cores`);
for (const name of values.scenario.split(',')) {
  const sources = scenarios(seconds)[name];
  if (!sources) throw new Error(`unknown scenario ${name}`);
  const dir = path.join(work, name);
  const recording = await makeFiles(ffmpegPath, dir, sources, seconds);
  const probing = performance.now();
  const plan = await planFiles(ffmpegPath, dir, recording);
  const probeS = (performance.now() - probing) / 1000;
  const windows = await encode(plan, dir, 'windows', WINDOW_MS);
  console.log(
    `${name}: windows ${windows.cpuS.toFixed(1)} s CPU (encode ${windows.encodeS.toFixed(1)} s, join + HLS ` +
      `${windows.joinS.toFixed(2)} s wall), measuring the files ${probeS.toFixed(2)} s -> ` +
      `${(seconds / windows.cpuS).toFixed(1)}x real time on one core (${((100 * windows.cpuS) / seconds).toFixed(0)} % ` +
      `of a core while live); MP4 ${windows.mbit.toFixed(2)} Mbit/s`,
  );
  if (values.compare) {
    // One window as long as the recording: the encode the replay job made before windows.
    const wholeMs = Math.ceil(plan.durationMs / WINDOW_GRID_MS) * WINDOW_GRID_MS;
    const whole = await encode(plan, dir, 'whole', wholeMs);
    console.log(
      `${name}: one encode ${whole.cpuS.toFixed(1)} s CPU -> ${(seconds / whole.cpuS).toFixed(1)}x; MP4 ` +
        `${whole.mbit.toFixed(2)} Mbit/s; SSIM of the windows' picture against it ${ssim(windows.mp4, whole.mp4)}`,
    );
  }
}
console.log(`${loadAverage()} after`);
if (values.keep) console.log(`files kept in ${work}`);
else fs.rmSync(work, { recursive: true, force: true });
