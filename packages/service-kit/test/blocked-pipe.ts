import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

/**
 * A pipe that is full and that nobody reads: what a process's stdout becomes when the reader of a pipeline
 * stops reading. `fd` is a write end to give a child as its stdout (blocking or not, as asked; a shell
 * pipeline's is blocking); `closeReader()` makes every later write fail with EPIPE.
 */
export function blockedPipe(options: { blocking: boolean }): {
  fd: number;
  closeReader: () => void;
  close: () => void;
} {
  const folder = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-pipe-'));
  const fifo = path.join(folder, 'stdout');
  execFileSync('mkfifo', [fifo]);
  const { O_RDONLY, O_WRONLY, O_NONBLOCK } = fs.constants;
  let reader: number | null = fs.openSync(fifo, O_RDONLY | O_NONBLOCK);
  const filler = fs.openSync(fifo, O_WRONLY | O_NONBLOCK);
  const fd = options.blocking ? fs.openSync(fifo, O_WRONLY) : filler;
  fs.rmSync(folder, { recursive: true, force: true });
  // Fill it: every write of the child then finds it full.
  const chunk = Buffer.alloc(4096, 'x');
  for (let written = 0; written < 16 * 1024 * 1024;) {
    try {
      written += fs.writeSync(filler, chunk);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'EAGAIN') break;
      throw error;
    }
  }
  const closeReader = () => {
    if (reader !== null) fs.closeSync(reader);
    reader = null;
  };
  return {
    fd,
    closeReader,
    close: () => {
      closeReader();
      for (const open of new Set([fd, filler])) fs.closeSync(open);
    },
  };
}
