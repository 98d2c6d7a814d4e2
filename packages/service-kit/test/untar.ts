import fs from 'node:fs';
import path from 'node:path';

const BLOCK = 512;

/** A field of a tar header: NUL-terminated text. */
function field(header: Uint8Array, start: number, length: number): string {
  const bytes = header.subarray(start, start + length);
  const end = bytes.indexOf(0);
  return new TextDecoder().decode(end === -1 ? bytes : bytes.subarray(0, end));
}

/**
 * Writes the folders and files of a ustar archive (as PGlite's `dumpDataDir` makes them) under `dir`. Names are
 * taken relative to `dir` whatever their leading slashes, and a name that would leave `dir` is an error.
 */
export function untar(archive: Uint8Array, dir: string): void {
  const root = path.resolve(dir);
  for (let offset = 0; offset + BLOCK <= archive.length;) {
    const header = archive.subarray(offset, offset + BLOCK);
    if (header.every((byte) => byte === 0)) break;
    const name = `${field(header, 345, 155)}${field(header, 0, 100)}`.replace(/^\/+/, '');
    const size = Number.parseInt(field(header, 124, 12).trim() || '0', 8);
    const type = String.fromCharCode(header[156] ?? 0);
    const target = path.resolve(root, name);
    if (target !== root && !target.startsWith(`${root}${path.sep}`))
      throw new Error(`tar entry ${name} leaves ${dir}`);
    const body = offset + BLOCK;
    if (type === '5') fs.mkdirSync(target, { recursive: true });
    else if (type === '0' || type === '\0') {
      fs.mkdirSync(path.dirname(target), { recursive: true });
      fs.writeFileSync(target, archive.subarray(body, body + size));
    }
    offset = body + Math.ceil(size / BLOCK) * BLOCK;
  }
}
