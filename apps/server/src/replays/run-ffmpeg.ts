import { spawn } from 'node:child_process';
import os from 'node:os';
import readline from 'node:readline';
import { parentDeathWrapper } from './find-tools.ts';

/** ffmpeg exited with an error; `message` ends with the last lines it wrote to stderr. */
export class FfmpegError extends Error {
  /** The signal that killed it (not by us), or null when it exited. */
  readonly killedBy: NodeJS.Signals | null;

  constructor(message: string, killedBy: NodeJS.Signals | null = null) {
    super(message);
    this.killedBy = killedBy;
  }
}

/** ffmpeg made no progress for its run's `stallMs` and was killed (the watchdog). */
export class FfmpegStalledError extends Error {
  readonly stalledMs: number;

  constructor(stalledMs: number) {
    super(`ffmpeg made no progress for ${Math.round(stalledMs / 1000)} s and was killed`);
    this.stalledMs = stalledMs;
  }
}

export type FfmpegRun = {
  /** Aborting kills ffmpeg at once (SIGKILL) and rejects with the signal's reason. */
  signal?: AbortSignal;
  /** Each line ffmpeg writes to stdout (the `-progress pipe:1` report, or a muxer's output). */
  onLine?: (line: string) => void;
  /**
   * The watchdog: ffmpeg is killed (FfmpegStalledError) when it makes no progress for this long, asked again
   * after each progress. Progress is a stdout line: a `-progress` report whose media time moved on, or any
   * other output (a muxer's lines).
   */
  stallMs?: () => number;
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
    let stalledAfter: number | null = null;
    let stallTimer: NodeJS.Timeout | undefined;
    const arm = () => {
      if (!run.stallMs) return;
      clearTimeout(stallTimer);
      const ms = run.stallMs();
      stallTimer = setTimeout(() => {
        stalledAfter = ms;
        child.kill('SIGKILL');
      }, ms);
    };
    const advanced = progressWatch();
    arm();
    let stderr = '';
    child.stderr.setEncoding('utf8');
    child.stderr.on('data', (chunk: string) => {
      stderr = (stderr + chunk).slice(-STDERR_KEPT_BYTES);
    });
    const lines = readline.createInterface({ input: child.stdout, crlfDelay: Infinity });
    lines.on('line', (line) => {
      if (advanced(line)) arm();
      onLine?.(line);
    });
    const kill = () => child.kill('SIGKILL');
    signal?.addEventListener('abort', kill, { once: true });
    child.on('error', (error) => {
      signal?.removeEventListener('abort', kill);
      clearTimeout(stallTimer);
      reject(error);
    });
    child.on('close', (code, killedBy) => {
      signal?.removeEventListener('abort', kill);
      clearTimeout(stallTimer);
      if (signal?.aborted) reject(signal.reason as Error);
      else if (stalledAfter !== null) reject(new FfmpegStalledError(stalledAfter));
      else if (code === 0) resolve();
      else {
        const how = killedBy ? `killed by ${killedBy}` : `exit code ${code}`;
        const said = stderr.trim().split('\n').slice(-5).join(' | ');
        reject(new FfmpegError(`ffmpeg failed (${how}): ${said}`, killedBy));
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

/**
 * Tells which stdout lines are progress: a `-progress` report's media time that moved on, or any line that is
 * not a `-progress` key (a muxer's output); the report's other keys (frame=, progress=continue) are written
 * even while nothing moves.
 */
function progressWatch(): (line: string) => boolean {
  let reached = -1;
  return (line) => {
    const time = /^out_time_(?:us|ms)=(\d+)$/.exec(line);
    if (time) {
      const value = Number(time[1]);
      if (value <= reached) return false;
      reached = value;
      return true;
    }
    return !/^[a-z_]+=/.test(line);
  };
}
