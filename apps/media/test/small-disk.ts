import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/** Whether this process may mount a filesystem (tests run as root here). */
export const canMount = process.getuid?.() === 0;

/**
 * A folder on a tmpfs of `megabytes` (mounted as root), which a test fills and frees to play
 * a recordings disk in trouble. `close` unmounts it and removes the folder.
 */
export function smallDisk(megabytes: number) {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-small-disk-'));
  const mount = (...args: string[]) => execFileSync('mount', args, { stdio: 'pipe' });
  mount('-t', 'tmpfs', '-o', `size=${megabytes}m`, 'tmpfs', dir);
  const filler = path.join(dir, 'filler');
  return {
    dir,
    /** Writes a filler file until the disk is full; returns its size. */
    fill(): number {
      const fd = fs.openSync(filler, 'a');
      const block = Buffer.alloc(256 * 1024);
      let written = 0;
      try {
        // Bounded: the disk has `megabytes`.
        for (let i = 0; i < megabytes * 4 + 8; i++) written += fs.writeSync(fd, block);
      } catch (error) {
        if ((error as { code?: string }).code !== 'ENOSPC') throw error;
      } finally {
        fs.closeSync(fd);
      }
      return written;
    },
    /** Removes the filler: the disk has room again. */
    free(): void {
      fs.rmSync(filler, { force: true });
    },
    close(): void {
      execFileSync('umount', ['-l', dir], { stdio: 'pipe' });
      fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}
