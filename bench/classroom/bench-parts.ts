import { loadavg } from 'node:os';

// The classroom benchmark's measures: its processes' messages, the workers' reports merged, CPU and percentiles.

/** A server's CPU and memory, and the event loop's longest delay since the previous such figure. */
export type Usage = { cpu: NodeJS.CpuUsage; rss: number; at: number; loopDelayMaxMs: number };
export type Report = {
  reactionMaxPerSecond: number[];
  reactionMaxPer2s: number[];
  reactionUpdates: number[];
  reactionSpanMs: number[];
  reactionSums: number[];
  minGapMs: number[];
  polls: number[];
  pollMaxPerSecond: number[];
  questions: number[];
  chat: number;
  chatUnique: number[];
  chatLatencies: Float64Array;
  chatLastAt: number;
  refusals: Record<string, number>;
  closed: number;
};

export const now = (): number => performance.timeOrigin + performance.now();
export const sleep = (ms: number): Promise<void> => new Promise((resolve) => setTimeout(resolve, ms));
export const load = (): string =>
  `load average ${loadavg()
    .map((value) => value.toFixed(2))
    .join(' ')}`;

export function percentile(values: ArrayLike<number>, p: number): number {
  const sorted = Float64Array.from(values).sort();
  if (sorted.length === 0) return Number.NaN;
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))] ?? Number.NaN;
}

type Listener = (message: { type: string }) => void;
/** The server process or a worker thread: both speak in `{type, ...}` messages. */
type MessageSource = {
  on(event: 'message', listener: Listener): unknown;
  off(event: 'message', listener: Listener): unknown;
};

export function once<T>(target: MessageSource, type: string): Promise<T> {
  return new Promise((resolve) => {
    const listener = (message: { type: string }): void => {
      if (message.type !== type) return;
      target.off('message', listener);
      resolve(message as T);
    };
    target.on('message', listener);
  });
}

/** The workers' reports as one: their members' figures side by side, counts summed. */
export function mergeReports(reports: Report[]): Report {
  const refusals: Record<string, number> = {};
  for (const report of reports)
    for (const [code, count] of Object.entries(report.refusals))
      refusals[code] = (refusals[code] ?? 0) + count;
  const all = <K extends keyof Report>(key: K): number[] =>
    reports.flatMap((report) => Array.from(report[key] as ArrayLike<number>));
  return {
    reactionMaxPerSecond: all('reactionMaxPerSecond'),
    reactionMaxPer2s: all('reactionMaxPer2s'),
    reactionUpdates: all('reactionUpdates'),
    reactionSpanMs: all('reactionSpanMs'),
    reactionSums: all('reactionSums'),
    minGapMs: all('minGapMs'),
    polls: all('polls'),
    pollMaxPerSecond: all('pollMaxPerSecond'),
    questions: all('questions'),
    chat: reports.reduce((sum, report) => sum + report.chat, 0),
    chatUnique: all('chatUnique'),
    chatLatencies: Float64Array.from(all('chatLatencies')),
    chatLastAt: Math.max(...reports.map((report) => report.chatLastAt)),
    refusals,
    closed: reports.reduce((sum, report) => sum + report.closed, 0),
  };
}

/** The server's CPU time between two readings, in ms: unlike a rate, it does not depend on the machine's load. */
export const cpuMs = (before: Usage, after: Usage): number =>
  (after.cpu.user - before.cpu.user + after.cpu.system - before.cpu.system) / 1000;
export const cpuPercent = (before: Usage, after: Usage): number =>
  (cpuMs(before, after) / (after.at - before.at)) * 100;
