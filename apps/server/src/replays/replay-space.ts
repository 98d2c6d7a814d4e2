import { diskSpace, formatBytes } from '../storage/disk-space.ts';
import { ENCODING } from './ffmpeg-args.ts';

/** Room kept free beside a replay's expected size: a tenth more, and at least this much. */
const MARGIN_SHARE = 0.1;
const MARGIN_MIN_BYTES = 16 * 1024 * 1024;
/** The least a second of replay takes per copy (a still picture and the sound), and the most (the caps). */
const MIN_BYTES_PER_S = 24_000;
const MAX_BYTES_PER_S = (parseBitrate(ENCODING.maxRate) + parseBitrate(ENCODING.audioBitrate)) / 8;
/** H.264 at the replay's quality takes about as much as the raw VP8 it is made from; half again to be safe. */
const RAW_SHARE = 1.5;

function parseBitrate(text: string): number {
  const match = /^(\d+)([kM]?)$/.exec(text);
  const unit = match?.[2] === 'M' ? 1_000_000 : match?.[2] === 'k' ? 1_000 : 1;
  return Number(match?.[1] ?? 0) * unit;
}

/**
 * The disk a replay needs while it is made, in bytes: the MP4 and its HLS copy (the same size again), each
 * estimated from the raw recording's size, within what a second of replay takes at the least and at the most
 * (the encoder's caps), plus a margin.
 */
export function expectedReplayBytes(durationMs: number, rawBytes: number): number {
  const seconds = Math.max(1, durationMs / 1000);
  const copy = Math.min(Math.max(rawBytes * RAW_SHARE, seconds * MIN_BYTES_PER_S), seconds * MAX_BYTES_PER_S);
  const both = 2 * copy;
  return Math.ceil(both + Math.max(both * MARGIN_SHARE, MARGIN_MIN_BYTES));
}

/** Free space wanting on the replays' disk: the numbers for the log and the teacher. */
export type SpaceShortage = { neededBytes: number; freeBytes: number };

/** The shortage on the disk of `dir` for `neededBytes`, or null when it has room (or cannot be measured). */
export async function spaceShortage(dir: string, neededBytes: number): Promise<SpaceShortage | null> {
  const space = await diskSpace(dir);
  if (!space || space.freeBytes >= neededBytes) return null;
  return { neededBytes, freeBytes: space.freeBytes };
}

/** The numbers of a shortage in Korean: '필요 1.2 GB, 남은 공간 300 MB'. */
export function shortageText({ neededBytes, freeBytes }: SpaceShortage): string {
  return `필요 ${formatBytes(neededBytes)}, 남은 공간 ${formatBytes(freeBytes)}`;
}
