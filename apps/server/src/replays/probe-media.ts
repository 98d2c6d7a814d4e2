import type { MediaProbe } from './composition-plan.ts';
import { FfmpegError, runFfmpeg } from './run-ffmpeg.ts';

type StreamFacts = {
  type?: string;
  tbNum: number;
  tbDen: number;
  width?: number;
  height?: number;
  end?: number;
};

/**
 * Measures a media file with ffmpeg alone (no ffprobe needed), whatever its container: every packet is copied
 * to the `framecrc` muxer, whose header names each stream's type, time base and picture size and whose lines
 * give each packet's time and duration. The end is the last packet's end on the file's own clock (so a file
 * cut off by a crash measures what it holds). Reads the file without decoding it: about a second an hour.
 */
export async function probeMedia(
  ffmpeg: string,
  file: string,
  type: 'audio' | 'video',
  run: { signal?: AbortSignal; stallMs?: () => number } = {},
): Promise<MediaProbe | null> {
  const { signal } = run;
  const streams = new Map<number, StreamFacts>();
  const stream = (index: number) => {
    let facts = streams.get(index);
    if (!facts) {
      facts = { tbNum: 1, tbDen: 1000 };
      streams.set(index, facts);
    }
    return facts;
  };
  const onLine = (line: string) => {
    const header = /^#(\w+) (\d+): (.+)$/.exec(line);
    if (header) {
      const [, key, index, value = ''] = header;
      const facts = stream(Number(index));
      if (key === 'tb') {
        const [num, den] = value.split('/').map(Number);
        if (num && den) Object.assign(facts, { tbNum: num, tbDen: den });
      } else if (key === 'media_type') facts.type = value.trim();
      else if (key === 'dimensions') {
        const [width, height] = value.split('x').map(Number);
        if (width && height) Object.assign(facts, { width, height });
      }
      return;
    }
    const fields = line.split(',').map((field) => field.trim());
    if (fields.length < 5 || !/^\d+$/.test(fields[0] ?? '')) return;
    const [index, dts, pts, duration] = fields.map(Number);
    const at = Number.isFinite(pts) ? pts : dts;
    if (index === undefined || at === undefined || !Number.isFinite(at)) return;
    const facts = stream(index);
    const end = at + (Number.isFinite(duration) ? (duration ?? 0) : 0);
    facts.end = Math.max(facts.end ?? end, end);
  };
  try {
    await runFfmpeg(
      ffmpeg,
      [
        '-hide_banner',
        '-nostdin',
        '-loglevel',
        'error',
        '-copyts',
        '-i',
        file,
        '-map',
        '0',
        '-c',
        'copy',
        '-f',
        'framecrc',
        '-',
      ],
      { ...run, onLine },
    );
  } catch (error) {
    // A file cut off mid-packet makes ffmpeg complain at its end; what was read still counts (and a file it
    // cannot read at all measures nothing). Not being able to run ffmpeg, or ffmpeg killed, is another matter.
    if (signal?.aborted || !(error instanceof FfmpegError) || !ffmpegRead(error)) throw error;
  }
  const facts = [...streams.values()].find((s) => s.type === type && s.end !== undefined);
  if (!facts || facts.end === undefined) return null;
  return {
    endMs: Math.round((facts.end * facts.tbNum * 1000) / facts.tbDen),
    width: facts.width ?? null,
    height: facts.height ?? null,
  };
}

/** False when ffmpeg did not get to read the file: it could not be started, or it was killed. */
function ffmpegRead(error: FfmpegError): boolean {
  return error.killedBy === null && !/failed to execute|exit code 127\b/.test(error.message);
}
