import { spawn, type ChildProcess } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { cpuSeconds, lines } from './processes.ts';
import type { JanusTarget } from './publish-teacher-janus.ts';

/** Where the students join: our media service's signalling URL, or a Janus VideoRoom. */
export type StudentTarget = { server: 'ours'; url: string } | ({ server: 'janus' } & JanusTarget);

export type StreamResult = { received: number; lost: number; windowReceived: number; windowLost: number };
export type StudentResult = {
  /** Milliseconds from `joinRoom` to each step (null: never). */
  timings: { answered: number | null; ice: number | null; dtls: number | null; keyframe: number | null };
  streams: Record<string, StreamResult>;
  connected: boolean;
  /** How much later than the earliest one its microphone packets arrived during the window. */
  audioDelayMs: { p50: number | null; p95: number | null };
};
type WorkerResult = { failures: number; students: StudentResult[] };

/**
 * N light students in worker processes of `perProcess` each (`student-worker.ts`), joining one every
 * `joinIntervalMs` overall. `mark()` starts and then ends the measured window; `report()` collects the results
 * and lets the workers leave.
 */
export function startStudentWorkers(
  target: StudentTarget,
  students: number,
  perProcess: number,
  joinIntervalMs: number,
) {
  const script = fileURLToPath(new URL('./student-worker.ts', import.meta.url));
  const workers: { child: ChildProcess; joined: Promise<void>; result: Promise<WorkerResult> }[] = [];
  for (let first = 0; first < students; first += perProcess) {
    const size = Math.min(perProcess, students - first);
    const child = spawn(
      process.execPath,
      [script, JSON.stringify(target), String(size), String(first), String(joinIntervalMs)],
      {
        stdio: ['pipe', 'pipe', 'pipe'],
      },
    );
    let joined = () => undefined as void;
    let report = (_: WorkerResult) => undefined as void;
    workers.push({
      child,
      joined: new Promise<void>((resolve) => (joined = resolve)),
      result: new Promise<WorkerResult>((resolve) => (report = resolve)),
    });
    lines(child, (line) => {
      if (line.startsWith('JOINED ')) joined();
      if (line.startsWith('RESULT ')) report(JSON.parse(line.slice(7)) as WorkerResult);
    });
  }
  const tell = (command: string) => {
    for (const { child } of workers) child.stdin?.write(`${command}\n`);
  };
  return {
    /** Resolves when every worker has made all its join attempts. */
    joined: Promise.all(workers.map((w) => w.joined)).then(() => undefined),
    /** CPU seconds the workers have used so far. */
    cpuSeconds: () => workers.reduce((sum, w) => sum + cpuSeconds(w.child.pid ?? 0), 0),
    mark: () => tell('MARK'),
    async report() {
      tell('REPORT');
      const results = await Promise.all(workers.map((w) => w.result));
      return {
        failures: results.reduce((sum, r) => sum + r.failures, 0),
        students: results.flatMap((r) => r.students),
      };
    },
  };
}
