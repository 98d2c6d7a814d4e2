import { promisify } from 'node:util';
import { inflateRaw } from 'node:zlib';

const inflate = promisify(inflateRaw);

/** Most entries an office file may hold. */
export const MAX_ZIP_ENTRIES = 10_000;
/** Most bytes an office file may unpack to, all entries together (a zip bomb unpacks to far more). */
export const MAX_UNZIPPED_BYTES = 200 * 1024 * 1024;

/** An office file that is not a readable zip, or one that unpacks to too much. */
export class ZipError extends Error {
  readonly bomb: boolean;

  constructor(message: string, bomb = false) {
    super(message);
    this.bomb = bomb;
  }
}

/** A zip entry: its name, and its bytes unpacked on demand. */
export type ZipEntry = { name: string; read(): Promise<Buffer> };

/**
 * The entries of a zip archive (an OOXML or OpenDocument file), after unpacking every one of them for real with
 * a budget: the sizes a zip declares may lie, so each entry is inflated with at most what is left of
 * {@link MAX_UNZIPPED_BYTES} (an entry that unpacks past it is a zip bomb). Zip64, encryption and methods other
 * than stored and deflate are refused: office files use none of them.
 */
export async function zipEntries(zip: Buffer): Promise<ZipEntry[]> {
  const end = findEnd(zip);
  const count = zip.readUInt16LE(end + 10);
  const directory = zip.readUInt32LE(end + 16);
  if (count === 0xffff || directory === 0xffffffff) throw new ZipError('zip64');
  if (count > MAX_ZIP_ENTRIES) throw new ZipError('too many entries', true);
  const entries: ZipEntry[] = [];
  let budget = MAX_UNZIPPED_BYTES;
  let at = directory;
  for (let index = 0; index < count; index += 1) {
    if (at + 46 > zip.length || zip.readUInt32LE(at) !== 0x02014b50) throw new ZipError('bad directory');
    const flags = zip.readUInt16LE(at + 8);
    const method = zip.readUInt16LE(at + 10);
    const compressed = zip.readUInt32LE(at + 20);
    const nameLength = zip.readUInt16LE(at + 28);
    const skip = nameLength + zip.readUInt16LE(at + 30) + zip.readUInt16LE(at + 32);
    const local = zip.readUInt32LE(at + 42);
    const name = zip.toString('utf8', at + 46, at + 46 + nameLength);
    at += 46 + skip;
    if ((flags & 1) !== 0) throw new ZipError('encrypted entry');
    if (method !== 0 && method !== 8) throw new ZipError('unknown method');
    if (local + 30 > zip.length || zip.readUInt32LE(local) !== 0x04034b50) throw new ZipError('bad entry');
    const start = local + 30 + zip.readUInt16LE(local + 26) + zip.readUInt16LE(local + 28);
    if (start + compressed > zip.length) throw new ZipError('truncated');
    const packed = zip.subarray(start, start + compressed);
    const bytes = method === 0 ? packed : await unpack(packed, budget);
    budget -= bytes.length;
    if (budget < 0) throw new ZipError('unpacks to too much', true);
    entries.push({ name, read: async () => bytes });
  }
  return entries;
}

async function unpack(packed: Buffer, budget: number): Promise<Buffer> {
  try {
    return await inflate(packed, { maxOutputLength: Math.max(1, budget) });
  } catch (error) {
    if (error instanceof RangeError || (error as { code?: string }).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new ZipError('unpacks to too much', true);
    }
    throw new ZipError('bad deflate data');
  }
}

/** The end-of-central-directory record: in the last 22 bytes, or before a comment of up to 64 KiB. */
function findEnd(zip: Buffer): number {
  for (let at = zip.length - 22; at >= Math.max(0, zip.length - 22 - 0xffff); at -= 1) {
    if (zip.readUInt32LE(at) === 0x06054b50) return at;
  }
  throw new ZipError('no end record');
}
