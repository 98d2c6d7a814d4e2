import { execFile } from 'node:child_process';
import { promisify } from 'node:util';

const run = promisify(execFile);

/** Whether ffprobe is on this machine (Debian's ffmpeg package brings it). */
export async function hasFfprobe(): Promise<boolean> {
  try {
    await run('ffprobe', ['-version']);
    return true;
  } catch {
    return false;
  }
}

export type Probe = {
  codec: string;
  width: number | null;
  height: number | null;
  /** The header's duration, if it has one (a file cut off by a crash has none). */
  durationS: number | null;
  packets: number;
  /** Where the last packet starts, on the file's clock: what a file cut off still holds. */
  lastPacketS: number;
  keyframeFirst: boolean;
};

/** Reads a media file's first stream and its packets with ffprobe (nothing decoded). */
export async function probe(file: string): Promise<Probe> {
  const { stdout } = await run(
    'ffprobe',
    [
      '-v',
      'error',
      '-show_entries',
      'stream=codec_name,width,height:format=duration:packet=pts_time,flags',
      '-of',
      'json',
      file,
    ],
    { maxBuffer: 64 * 1024 * 1024 },
  );
  const parsed = JSON.parse(stdout) as {
    streams: { codec_name: string; width?: number; height?: number }[];
    format: { duration?: string };
    packets: { pts_time?: string; flags?: string }[];
  };
  const stream = parsed.streams[0];
  if (!stream) throw new Error(`${file}: no stream`);
  const times = parsed.packets.map((p) => Number(p.pts_time ?? NaN)).filter(Number.isFinite);
  const duration = Number(parsed.format.duration);
  return {
    codec: stream.codec_name,
    width: stream.width ?? null,
    height: stream.height ?? null,
    durationS: Number.isFinite(duration) && duration > 0 ? duration : null,
    packets: parsed.packets.length,
    lastPacketS: Math.max(0, ...times),
    keyframeFirst: parsed.packets[0]?.flags?.startsWith('K') ?? false,
  };
}
