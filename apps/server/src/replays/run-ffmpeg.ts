import { spawn } from 'node:child_process';
import os from 'node:os';
import readline from 'node:readline';
import { parentDeathWrapper } from './find-tools.ts';

/** ffmpeg exited with an error; `message` ends with the last lines it wrote to stderr. */
export class FfmpegError extends Error {}

export type FfmpegRun = {
  /** Aborting kills ffmpeg at once (SIGKILL) and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Each line ffmpeg writes to stdout (the `-progress pipe:1` report, or a muxer's output). */
  onLine?: (line: string) => void;
};

const STDERR_KEPT_BYTES = 4_000;
/** Replays are made beside live lectures: ffmpeg runs at a lower priority than the SFU and the API. */
const NICENESS = 10;

/**
 * Runs ffmpeg to its end. Its stdout is read line by line. On Linux with util-linux's `setpriv`, the kernel
 * kills ffmpeg when this process dies (ffmpeg ignores SIGPIPE, so a closed pipe alone would not end it): a
 * killed server leaves no ffmpeg encoding for nobody while its restart takes the job again.
 */
export function runFfmpeg(ffmpeg: string, args: readonly string[], run: FfmpegRun = {}): Promise<void> {
  const { signal, onLine } = run;
  return new Promise<void>((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason as Error);
      return;
    }
    const wrapper = parentDeathWrapper();
    const [command, commandArgs] = wrapper
      ? [wrapper, ['--pdeathsig', 'KILL', '--', ffmpeg, ...args]]
      : [ffmpeg, [...args]];
    const child = spawn(command, commandArgs, { stdio: ['ignore', 'pipe', 'pipe'] });
    try {
      if (child.pid !== undefined) os.setPriority(child.pid, NICENESS);
    } catch {
      // Not permitted on this system: it runs at normal priority.
    }
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEPT_BYTES);
    });
    const lines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => onLine?.(line));
    const kill = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', kill, { once: true });
    child.on('error', (error) => {
      signal?.removeEventListener('abort', kill);
      reject(error);
    });
    child.on('close', (code, killedBy) => {
      signal?.removeEventListener('abort', kill);
      if (signal?.aborted) reject(signal.reason as Error);
      else if (code === 0) resolve();
      else {
        const how = killedBy ? `killed by ${killedBy}` : `exit code ${code}`;
        reject(new FfmpegError(`ffmpeg failed (${how}): ${stderr.trim().split('\n').slice(-5).join(' | ')}`));
      }
    });
  });
}

/**
 * Reads `-progress` lines: calls `onTime` with the media time (ms) reached. ffmpeg writes `out_time_us` (and,
 * in older versions, microseconds under the name `out_time_ms`).
 */
export function progressReader(onTime: (ms: number) => void): (line: string) => void {
  return (line) => {
    const match = /^out_time_(?:us|ms)=(\d+)$/.exec(line);
    if (match) onTime(Number(match[1]) / 1000);
  };
}
