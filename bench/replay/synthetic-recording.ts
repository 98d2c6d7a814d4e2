// A synthetic raw recording for the replay benches: each stream a VP8 or Opus WebM as the media service writes
// it, made from a lavfi clip looped by copying (fast), with its files measured and planned as the replay job
// does; and the CPU time the bench's ffmpeg runs took.
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import type { StreamKind } from '@sea/contract/live';
import {
  type CompositionPlan,
  type MediaProbe,
  planComposition,
} from '../../apps/server/src/replays/composition-plan.ts';
import { probeMedia } from '../../apps/server/src/replays/probe-media.ts';
import type { Recording } from '../../apps/server/src/replays/recording-manifest.ts';

const run = promisify(execFile);

/** A stream the teacher published: `lavfi` makes a few seconds of it, looped for `lengthS`. */
export type Source = { kind: StreamKind; startS: number; lengthS: number; lavfi: string };

const CLIP_S = 6;

/** Scenarios of `seconds` of lecture: what the teacher published. */
export const scenarios = (seconds: number): Record<string, Source[]> => ({
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
});

/** Each stream as the media service records it: a VP8 or Opus WebM, here a clip looped by copying (fast). */
export async function makeFiles(
  ffmpeg: string,
  dir: string,
  sources: Source[],
  seconds: number,
): Promise<Recording> {
  fs.mkdirSync(dir, { recursive: true });
  const tracks = [];
  for (const [i, source] of sources.entries()) {
    const file = `${source.kind}-${i}.webm`;
    const clip = path.join(dir, `clip-${i}.webm`);
    const video = source.kind.endsWith('Video');
    const codec = video
      ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '1000k']
      : ['-c:a', 'libopus', '-b:a', '48k'];
    await run(ffmpeg, [
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
    await run(ffmpeg, [
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

/** Measures the recording's files as the replay job does and plans its replay. */
export async function planFiles(ffmpeg: string, dir: string, recording: Recording): Promise<CompositionPlan> {
  const probes = new Map<string, MediaProbe | null>();
  for (const track of recording.tracks) {
    const kind = track.kind.endsWith('Video') ? 'video' : 'audio';
    probes.set(track.file, await probeMedia(ffmpeg, path.join(dir, track.file), kind));
  }
  return planComposition(recording, probes);
}

/** CPU seconds (user + system) of this process's children that ended: the ffmpeg runs so far (Linux). */
export function childrenCpuS(): number {
  const stat = fs.readFileSync('/proc/self/stat', 'utf8');
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 16 and 17 of stat(5) (cutime, cstime), counted from the state (field 3) here.
  const ticks = Number(fields[13]) + Number(fields[14]);
  return ticks / 100;
}

/** The load average, as the benches print it beside their figures. */
export const loadAverage = () =>
  `load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}`;
