import { execFile } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { promisify } from 'node:util';
import sharp from 'sharp';
import type { StreamKind } from '@sea/contract/live';
import { RECORDING_MANIFEST, type RecordingEvent } from '@sea/contract/recording';

const run = promisify(execFile);

/** One file of a fixture recording: `kind` from `startMs` for `lengthMs` (a lavfi source, like a recorder's). */
export type FixtureFile = {
  kind: StreamKind;
  startMs: number;
  lengthMs: number;
  /** Picture size (video); the default is small, so fixtures are quick to make. */
  size?: string;
  /** A sine's pitch (audio). */
  frequency?: number;
};

/**
 * Makes a raw recording as the media service writes it: one WebM per stretch (VP8 from testsrc2 / Opus from a
 * sine, timestamps from 0) and the manifest. `events` are written as given, after the session line, so a test
 * can leave out `trackEnd`s and the `end` like a crash does; `track(file)` names a file's track id.
 */
export async function makeRecording(
  ffmpeg: string,
  dir: string,
  files: FixtureFile[],
  events: (track: (file: FixtureFile) => string) => (RecordingEvent | string)[],
  startedAt = new Date(),
): Promise<void> {
  fs.mkdirSync(dir, { recursive: true });
  const names = new Map<FixtureFile, string>();
  await Promise.all(
    files.map(async (file, i) => {
      const name = `${file.kind}-${i}.webm`;
      names.set(file, name);
      const seconds = (file.lengthMs / 1000).toFixed(3);
      const video = file.kind.endsWith('Video');
      const source = video
        ? `testsrc2=s=${file.size ?? '320x180'}:r=15:d=${seconds}`
        : `sine=f=${file.frequency ?? 440}:sample_rate=48000:d=${seconds}`;
      const codec = video
        ? ['-c:v', 'libvpx', '-deadline', 'realtime', '-cpu-used', '8', '-b:v', '300k']
        : ['-c:a', 'libopus', '-b:a', '32k'];
      await run(ffmpeg, [
        '-hide_banner',
        '-loglevel',
        'error',
        '-y',
        '-f',
        'lavfi',
        '-i',
        source,
        ...codec,
        path.join(dir, name),
      ]);
    }),
  );
  const track = (file: FixtureFile) => `${file.kind}-${files.indexOf(file)}`;
  const session: RecordingEvent = {
    type: 'session',
    t: 0,
    sessionKey: path.basename(dir),
    classId: 1,
    teacherNickname: '파도선생',
    startedAt: startedAt.toISOString(),
  };
  const lines = [session, ...events(track)].map((e) => (typeof e === 'string' ? e : JSON.stringify(e)));
  fs.writeFileSync(path.join(dir, RECORDING_MANIFEST), `${lines.join('\n')}\n`);
}

/** The `track` event of a fixture file. */
export function trackEvent(file: FixtureFile, track: string): RecordingEvent {
  const codec = file.kind.endsWith('Video') ? 'vp8' : 'opus';
  return { type: 'track', t: file.startMs, track, kind: file.kind, file: `${track}.webm`, codec };
}

/** ffprobe's view of a media file or playlist: its streams and its duration in seconds. */
export async function probe(file: string): Promise<{
  streams: { codec_name: string; codec_type: string; pix_fmt?: string; width?: number; height?: number }[];
  durationS: number;
}> {
  const { stdout } = await run('ffprobe', [
    '-v',
    'error',
    '-show_entries',
    'stream=codec_name,codec_type,pix_fmt,width,height:format=duration',
    '-of',
    'json',
    file,
  ]);
  const parsed = JSON.parse(stdout) as { streams: never[]; format: { duration: string } };
  return { streams: parsed.streams, durationS: Number(parsed.format.duration) };
}

/** The chapters `ffprobe -show_chapters` lists in a media file: start and end in seconds, and title. */
export async function probeChapters(file: string): Promise<{ start: number; end: number; title: string }[]> {
  const { stdout } = await run('ffprobe', ['-v', 'error', '-show_chapters', '-of', 'json', file]);
  const parsed = JSON.parse(stdout) as {
    chapters: { start_time: string; end_time: string; tags?: { title?: string } }[];
  };
  return parsed.chapters.map((chapter) => ({
    start: Number(chapter.start_time),
    end: Number(chapter.end_time),
    title: chapter.tags?.title ?? '',
  }));
}

/** The mean brightness (0-255) of the picture at `seconds`, and its share of bright pixels. */
export async function brightness(file: string, seconds: number): Promise<{ mean: number; bright: number }> {
  const { stdout } = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      String(seconds),
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      'scale=160:90,format=gray',
      '-f',
      'rawvideo',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 1 << 20 },
  );
  const pixels = [...stdout];
  return {
    mean: pixels.reduce((sum, v) => sum + v, 0) / pixels.length,
    bright: pixels.filter((v) => v > 128).length / pixels.length,
  };
}

/**
 * How far the picture at `seconds` is from `image` (any picture sharp reads, of the video's aspect): the mean
 * absolute difference (0-255) of their RGB at 160x90, over the columns from the share `fromShare` of the width
 * to `leftShare` (the webcam's corner picture sits at the right).
 */
export async function frameDifference(
  file: string,
  seconds: number,
  image: Buffer,
  leftShare = 1,
  fromShare = 0,
): Promise<number> {
  const frame = await run(
    'ffmpeg',
    [
      '-v',
      'error',
      '-ss',
      String(seconds),
      '-i',
      file,
      '-frames:v',
      '1',
      '-vf',
      'scale=160:90',
      '-pix_fmt',
      'rgb24',
      '-f',
      'rawvideo',
      '-',
    ],
    { encoding: 'buffer', maxBuffer: 1 << 20 },
  );
  const expected = await sharp(image).resize(160, 90, { fit: 'fill' }).removeAlpha().raw().toBuffer();
  const columns = Math.round(160 * leftShare);
  const first = Math.round(160 * fromShare);
  let sum = 0;
  let count = 0;
  for (let y = 0; y < 90; y += 1) {
    for (let x = first * 3; x < columns * 3; x += 1) {
      const at = y * 160 * 3 + x;
      sum += Math.abs((frame.stdout[at] ?? 0) - (expected[at] ?? 0));
      count += 1;
    }
  }
  return sum / count;
}

/** A 3 s recording of the webcam and the microphone, ended, in `dir` (the quickest one a replay is made of). */
export async function webcamRecording(ffmpeg: string, dir: string): Promise<void> {
  const cam: FixtureFile = { kind: 'webcamVideo', startMs: 0, lengthMs: 3_000 };
  const mic: FixtureFile = { kind: 'webcamAudio', startMs: 0, lengthMs: 3_000 };
  await makeRecording(ffmpeg, dir, [cam, mic], (track) => [
    trackEvent(cam, track(cam)),
    trackEvent(mic, track(mic)),
    { type: 'end', t: 3_000 },
  ]);
}
