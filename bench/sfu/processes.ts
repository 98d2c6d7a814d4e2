import type { ChildProcess } from 'node:child_process';
import fs from 'node:fs';

/** CPU seconds (user + system) a process, all its threads, has used so far, from /proc; 0 once it is gone. */
export function cpuSeconds(pid: number): number {
  const { user, system } = cpuTimes(pid);
  return user + system;
}

/** CPU seconds a process has used so far in user space and in the kernel; zeros once it is gone. */
export function cpuTimes(pid: number): { user: number; system: number } {
  try {
    const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    // utime, stime in clock ticks (USER_HZ = 100)
    return { user: Number(fields[11]) / 100, system: Number(fields[12]) / 100 };
  } catch {
    return { user: 0, system: 0 }; // the process exited: nothing more to count
  }
}

/** Calls `onLine` for each line a child prints; its stderr goes to ours. */
export function lines(child: ChildProcess, onLine: (line: string) => void): void {
  let buffer = '';
  child.stdout?.on('data', (chunk: Buffer) => {
    buffer += chunk.toString();
    for (let i = buffer.indexOf('\n'); i >= 0; i = buffer.indexOf('\n')) {
      onLine(buffer.slice(0, i));
      buffer = buffer.slice(i + 1);
    }
  });
  child.stderr?.on('data', (chunk: Buffer) => process.stderr.write(chunk));
}

/** The p-th percentile (nearest rank) of `values`, rounded to an integer; NaN for none. */
export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return Math.round(sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? NaN);
}

export const round = (value: number, digits: number) => Number(value.toFixed(digits));
