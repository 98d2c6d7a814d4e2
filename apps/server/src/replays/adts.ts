import fs from 'node:fs/promises';

/** Samples in one AAC frame. */
export const AAC_FRAME_SAMPLES = 1024;

/** The bytes are not AAC frames in ADTS headers as ffmpeg writes them. */
export class AdtsError extends Error {}

/**
 * Splits raw AAC in ADTS headers (ffmpeg's `-f adts`) into its frames, each with its header. Every frame is
 * 1024 samples; the first one an encoder writes is its priming (silence that the decoder's overlap needs).
 */
export function adtsFrames(bytes: Buffer): Buffer[] {
  const frames: Buffer[] = [];
  let at = 0;
  while (at < bytes.length) {
    if (at + 7 > bytes.length || bytes[at] !== 0xff || ((bytes[at + 1] ?? 0) & 0xf0) !== 0xf0) {
      throw new AdtsError(`no ADTS frame at byte ${at}`);
    }
    const length =
      (((bytes[at + 3] ?? 0) & 0x03) << 11) | ((bytes[at + 4] ?? 0) << 3) | ((bytes[at + 5] ?? 0) >> 5);
    if (length < 7 || at + length > bytes.length) throw new AdtsError(`a cut ADTS frame at byte ${at}`);
    frames.push(bytes.subarray(at, at + length));
    at += length;
  }
  return frames;
}

/** Frames `drop` to `drop + keep` of one encoded piece (`keep` null: to its end). */
export type AdtsPiece = { file: string; drop: number; keep: number | null };

/**
 * Joins pieces of sound encoded one after another, each with its own encoder, into one stream of frames: of
 * each piece the frames of its own stretch (`drop` skips its priming and its lead-in, `keep` ends it before
 * its lead-out). The frames lie on one grid of 1024 samples and each was encoded with the sound on both sides
 * of it, so the decoder's overlap joins them without a click (replay-windows.ts chooses the stretches).
 * Returns the frames written.
 */
export async function joinAdts(pieces: readonly AdtsPiece[], output: string): Promise<number> {
  const handle = await fs.open(output, 'w');
  let written = 0;
  try {
    for (const piece of pieces) {
      const frames = adtsFrames(await fs.readFile(piece.file));
      const end = piece.keep === null ? frames.length : piece.drop + piece.keep;
      if (end > frames.length) {
        throw new AdtsError(`${piece.file} holds ${frames.length} frames, ${end} were needed`);
      }
      const kept = frames.slice(piece.drop, end);
      if (kept.length > 0) await handle.write(Buffer.concat(kept));
      written += kept.length;
    }
  } finally {
    await handle.close();
  }
  return written;
}
