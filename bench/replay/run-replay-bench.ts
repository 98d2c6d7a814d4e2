// Replay processing speed: how many times faster than real time one core turns a raw recording into its
// replay (MP4 encode, then the HLS remux), with the replay job's own plan and ffmpeg arguments.
//
//   npm exec -- node bench/replay/run-replay-bench.ts [--seconds 120] [--scenario lecture,webcam]
//
// Each scenario's recording is made first with ffmpeg from lavfi sources (VP8/Opus WebM, as the media service
// records), then the encode runs under `taskset -c 0` with one thread everywhere. CPU time (user + system, from
// /usr/bin/time) is what one core spends; wall time depends on what else the machine runs (load average shown).
import { execFile, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseArgs, promisify } from 'node:util';
import type { StreamKind } from '@sea/contract/live';
import { type MediaProbe, planComposition } from '../../apps/server/src/replays/composition-plan.ts';
import { ENCODING, encodeArgs, hlsArgs } from '../../apps/server/src/replays/ffmpeg-args.ts';
import { findFfmpeg, findHangulFont } from '../../apps/server/src/replays/find-tools.ts';
import { probeMedia } from '../../apps/server/src/replays/probe-media.ts';
import type { Recording } from '../../apps/server/src/replays/recording-manifest.ts';

const run = promisify(execFile);
const { values } = parseArgs({
  options: {
    seconds: { type: 'string', default: '120' },
    scenario: { type: 'string', default: 'lecture,webcam' },
    keep: { type: 'boolean', default: false },
    // Another x264 preset than the replay job's, to compare (e.g. ultrafast, veryfast).
    preset: { type: 'string' },
  },
});
const seconds = Number(values.seconds);
const ffmpeg = await findFfmpeg(process.env.FFMPEG_PATH ?? null);
if (!ffmpeg) throw new Error('no ffmpeg with libx264');
const font = await findHangulFont();
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-replay-bench-'));

/** A stream the teacher published: `lavfi` makes a few seconds of it, looped for `lengthS`. */
type Source = { kind: StreamKind; startS: number; lengthS: number; lavfi: string };

const CLIP_S = 6;
/** Scenarios: what the teacher published. */
const SCENARIOS: Record<string, Source[]> = {
  // Slides shared (1920x1080, mostly still, 15 fps), the webcam in the corner (1280x720, 30 fps, switched off
  // for a tenth of the lecture), microphone and system audio.
  lecture: [
    { kind: 'screenShareVideo', startS: 0, lengthS: seconds, lavfi: 'testsrc=s=1920x1080:r=15' },
    { kind: 'webcamVideo', startS: 0, lengthS: seconds * 0.45, lavfi: 'testsrc2=s=1280x720:r=30' },
    {
      kind: 'webcamVideo',
      startS: seconds * 0.55,
      lengthS: seconds * 0.45,
      lavfi: 'testsrc2=s=1280x720:r=30',
    },
    { kind: 'webcamAudio', startS: 0, lengthS: seconds, lavfi: 'sine=f=440:sample_rate=48000' },
    { kind: 'screenShareAudio', startS: 0, lengthS: seconds, lavfi: 'sine=f=880:sample_rate=48000' },
  ],
  // The webcam alone, full frame, moving everywhere (testsrc2): the encoder's worst case.
  webcam: [
    { kind: 'webcamVideo', startS: 0, lengthS: seconds, lavfi: 'testsrc2=s=1280x720:r=30' },
    { kind: 'webcamAudio', startS: 0, lengthS: seconds, lavfi: 'sine=f=440:sample_rate=48000' },
  ],
};

/** Each stream as the media service records it: a VP8 or Opus WebM, here a clip looped by copying (fast). */
async function makeFiles(dir: string, sources: Source[]): Promise<Recording> {
  fs.mkdirSync(dir, { recursive: true });
  const tracks = [];
  for (const [i, source] of sources.entries()) {
    const file = `${source.kind}-${i}.webm`;
    const clip = path.join(dir, `clip-${i}.webm`);
    const video = source.kind.endsWith('Video');
    const codec = video
      ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1000k']
      : ['-c:a', 'libopus', '-b:a', '48k'];
    const ff = ffmpeg?.path ?? 'ffmpeg';
    await run(ff, [
      '-loglevel',
      'error',
      '-y',
      '-f',
      'lavfi',
      '-i',
      `${source.lavfi}:d=${CLIP_S}`,
      ...codec,
      clip,
    ]);
    const loops = String(Math.ceil(source.lengthS / CLIP_S));
    const length = source.lengthS.toFixed(3);
    await run(ff, [
      '-loglevel',
      'error',
      '-y',
      '-stream_loop',
      loops,
      '-i',
      clip,
      '-c',
      'copy',
      '-t',
      length,
      path.join(dir, file),
    ]);
    fs.rmSync(clip);
    const startMs = Math.round(source.startS * 1000);
    tracks.push({
      track: `t${i}`,
      kind: source.kind,
      file,
      startMs,
      endMs: startMs + Math.round(source.lengthS * 1000),
    });
  }
  return {
    teacherNickname: '파도선생',
    startedAt: new Date().toISOString(),
    tracks,
    pauses: [],
    stalls: [],
    endMs: seconds * 1000,
    skippedLines: 0,
  };
}

/** Runs ffmpeg on core 0 under /usr/bin/time: CPU seconds (user + system) and wall seconds. */
function timed(args: string[]): { cpuS: number; wallS: number } {
  const report = path.join(work, 'time.txt');
  const result = spawnSync(
    '/usr/bin/time',
    ['-f', '%U %S %e', '-o', report, 'taskset', '-c', '0', ffmpeg?.path ?? 'ffmpeg', ...args],
    {
      stdio: ['ignore', 'ignore', 'inherit'],
    },
  );
  if (result.status !== 0) throw new Error(`ffmpeg failed (${result.status})`);
  const [user = 0, system = 0, wall = 0] = fs.readFileSync(report, 'utf8').trim().split(/\s+/).map(Number);
  return { cpuS: user + system, wallS: wall };
}

console.log(
  `ffmpeg: ${ffmpeg.path} (${ffmpeg.source}); ${values.preset ?? ENCODING.preset}, ${ENCODING.fps} fps, 1280x720; ${seconds} s of lecture`,
);
console.log(
  `load average before: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')} on ${os.cpus().length} cores`,
);
for (const name of values.scenario.split(',')) {
  const sources = SCENARIOS[name];
  if (!sources) throw new Error(`unknown scenario ${name}`);
  const dir = path.join(work, name);
  const recording = await makeFiles(dir, sources);
  const probes = new Map<string, MediaProbe | null>();
  const probeStart = process.hrtime.bigint();
  for (const track of recording.tracks) {
    probes.set(
      track.file,
      await probeMedia(
        ffmpeg.path,
        path.join(dir, track.file),
        track.kind.endsWith('Video') ? 'video' : 'audio',
      ),
    );
  }
  const probeS = Number(process.hrtime.bigint() - probeStart) / 1e9;
  const plan = planComposition(recording, probes);
  const nameFile = path.join(dir, 'name.txt');
  fs.writeFileSync(nameFile, recording.teacherNickname);
  const mp4 = path.join(dir, 'replay.mp4');
  if (values.keep) {
    const args = encodeArgs(plan, { inputDir: dir, nameFile, fontFile: font, output: mp4, threads: 1 });
    fs.writeFileSync(path.join(dir, 'args.json'), JSON.stringify(args));
  }
  const args = encodeArgs(plan, { inputDir: dir, nameFile, fontFile: font, output: mp4, threads: 1 })
    .filter((a, i, all) => !(a === '-progress' || all[i - 1] === '-progress'))
    .map((a, i, all) => (all[i - 1] === '-preset' && values.preset ? values.preset : a));
  const encode = timed(args);
  fs.mkdirSync(path.join(dir, 'hls'));
  const remux = timed(hlsArgs(mp4, path.join(dir, 'hls')));
  const cpu = encode.cpuS + remux.cpuS;
  const megabytes = fs.statSync(mp4).size / 1e6;
  console.log(
    `${name}: encode ${encode.cpuS.toFixed(1)} s CPU (${encode.wallS.toFixed(1)} s wall), HLS remux ${remux.cpuS.toFixed(2)} s CPU, ` +
      `measuring the files ${probeS.toFixed(2)} s wall -> ${(seconds / cpu).toFixed(1)}x real time on one core; ` +
      `MP4 ${megabytes.toFixed(1)} MB (${((megabytes * 8) / seconds).toFixed(2)} Mbit/s)`,
  );
}
console.log(
  `load average after: ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`,
);
if (values.keep) console.log(`files kept in ${work}`);
else fs.rmSync(work, { recursive: true, force: true });
