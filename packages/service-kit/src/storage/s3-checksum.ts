import { createHash } from 'node:crypto';
import { open } from 'node:fs/promises';

/**
 * The checksum an S3 store gives a local file once stored through `FileStore.put`: the MD5 of the bytes for a
 * file of at most one part, else the MD5 of the parts' MD5s followed by `-parts` (parts of `partBytes`).
 */
export async function s3Checksum(file: string, partBytes: number): Promise<string> {
  const handle = await open(file, 'r');
  try {
    const { size } = await handle.stat();
    const buffer = Buffer.alloc(Math.max(1, Math.min(partBytes, size)));
    const whole = createHash('md5');
    const parts: Buffer[] = [];
    for (let at = 0; at < size; at += partBytes) {
      const length = Math.min(partBytes, size - at);
      for (let read = 0; read < length;) {
        const { bytesRead } = await handle.read(buffer, read, length - read, at + read);
        if (bytesRead === 0) throw new Error(`${file} became shorter while it was read`);
        read += bytesRead;
      }
      const chunk = buffer.subarray(0, length);
      whole.update(chunk);
      parts.push(createHash('md5').update(chunk).digest());
    }
    if (parts.length <= 1) return whole.digest('hex');
    return `${createHash('md5').update(Buffer.concat(parts)).digest('hex')}-${parts.length}`;
  } finally {
    await handle.close();
  }
}
