import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { z } from 'zod';
import { MEDIA_CALLBACK_AUDIENCE } from '@sea/contract/live-ticket';
import {
  MEDIA_NODE_REPORT_INTERVAL_MS,
  MediaRevocationSchema,
  type MediaClosedRoom,
  type MediaEdgeRoom,
  type MediaNodeReport,
  type MediaRevocation,
  type MediaRoom,
} from '@sea/contract/media-nodes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { log } from './log.ts';
import type { RoomReports } from './media-server.ts';

export type NodeReporterOptions = {
  apiUrl: string;
  secret: string;
  /** This node's name (MEDIA_NODE_ID). */
  nodeId: string;
  /** Where the API server reaches this node (MEDIA_INTERNAL_URL). */
  url: string;
  /** The node's open rooms now. */
  rooms: () => MediaRoom[];
  /** The classes it relays from their origin now, with its students in them (none by default). */
  edges?: () => MediaEdgeRoom[];
  /** What the API server answered that the node must end. */
  revoke: (revocation: MediaRevocation) => void;
  intervalMs?: number;
  /** Wait before trying again after a failed report. */
  retryMs?: number;
  /** How soon a report follows students joining or leaving (changes within it share one report). */
  studentDelayMs?: number;
  fetch?: typeof fetch;
  /** Where problems are told (the service's log by default). */
  warn?: (line: string) => void;
  info?: (line: string) => void;
};

const TOKEN_TTL_S = 60;
/** Students' joins and leaves reach the API server within about this much (its attendance record's accuracy). */
export const STUDENT_REPORT_DELAY_MS = 1_000;
const REQUEST_TIMEOUT_MS = 5_000;
/** Closed rooms kept while the API server cannot be told (the oldest go first past this). */
const MAX_PENDING_CLOSED = 10_000;
const AnswerSchema = z.object({ data: MediaRevocationSchema });

/**
 * Reports this node's whole state to the API server (`PUT {API_URL}/internal/media-nodes/{nodeId}`, a bearer
 * token signed with MEDIA_SECRET): every {@link MEDIA_NODE_REPORT_INTERVAL_MS}, and at once when a room
 * opens or closes, and within {@link STUDENT_REPORT_DELAY_MS} when students join or leave. One report at a time, each numbered (`seq`) within this run (`boot`), so the API server
 * applies them in order; a closed room is repeated until a report carrying it is answered. The answer says
 * what to end (revocations). A failing API server is told about in one clear line per failing stretch, never
 * thrown.
 */
export class NodeReporter implements RoomReports {
  private readonly options: Required<Omit<NodeReporterOptions, 'fetch'>> & { fetch: typeof fetch };
  private readonly key: Uint8Array;
  private readonly boot = randomUUID();
  private readonly bootedAt = new Date().toISOString();
  private seq = 0;
  private closedRooms: MediaClosedRoom[] = [];
  private running: Promise<void> | null = null;
  /** Callers waiting for a report made after their change: told whether it was answered. */
  private waiting: ((answered: boolean) => void)[] = [];
  private interval: NodeJS.Timeout | null = null;
  private retry: NodeJS.Timeout | null = null;
  private studentReport: NodeJS.Timeout | null = null;
  /** null until the first report's outcome; then whether the last one was answered (for the log lines). */
  private reachable: boolean | null = null;
  private problem = '';
  private isClosed = false;

  constructor(options: NodeReporterOptions) {
    this.options = {
      intervalMs: MEDIA_NODE_REPORT_INTERVAL_MS,
      retryMs: 1_000,
      studentDelayMs: STUDENT_REPORT_DELAY_MS,
      fetch: globalThis.fetch,
      warn: (line) => log.warn(line),
      info: (line) => log.info(line),
      edges: () => [],
      ...options,
    };
    this.key = new TextEncoder().encode(options.secret);
  }

  /** Sends the first report (the API server learns the node is up, and ends what its previous run left). */
  start(): void {
    void this.changed();
    this.interval = setInterval(() => void this.changed(), this.options.intervalMs);
    this.interval.unref();
  }

  changed(closed?: MediaClosedRoom): Promise<boolean> {
    if (closed) {
      this.closedRooms.push(closed);
      if (this.closedRooms.length > MAX_PENDING_CLOSED) this.closedRooms.shift();
    }
    if (this.isClosed) return Promise.resolve(false);
    return new Promise((resolve) => {
      this.waiting.push(resolve);
      this.running ??= this.run().finally(() => {
        this.running = null;
      });
    });
  }

  /** Students joined or left a room: one report follows shortly, covering every change made until then. */
  studentsChanged(): void {
    if (this.isClosed || this.studentReport !== null) return;
    this.studentReport = setTimeout(() => {
      this.studentReport = null;
      void this.changed();
    }, this.options.studentDelayMs);
    this.studentReport.unref();
  }

  /**
   * Reports the current state until it is answered or `timeoutMs` has passed (at shutdown, after every room
   * closed). Resolves whether it was answered.
   */
  async flush(timeoutMs: number): Promise<boolean> {
    const deadline = Date.now() + timeoutMs;
    const timeout = () =>
      new Promise<false>((resolve) =>
        setTimeout(() => resolve(false), Math.max(0, deadline - Date.now())).unref(),
      );
    while (Date.now() < deadline) {
      if (await Promise.race([this.changed(), timeout()])) return true;
      await new Promise((resolve) => setTimeout(resolve, Math.min(this.options.retryMs, 250)).unref());
    }
    return false;
  }

  /** Stops reporting; anyone waiting is told the report did not happen. */
  close(): void {
    this.isClosed = true;
    if (this.interval) clearInterval(this.interval);
    if (this.retry) clearTimeout(this.retry);
    if (this.studentReport) clearTimeout(this.studentReport);
    for (const resolve of this.waiting.splice(0)) resolve(false);
  }

  /** Sends reports until every waiting change is covered by one. */
  private async run(): Promise<void> {
    while (this.waiting.length > 0 && !this.isClosed) {
      const waiting = this.waiting.splice(0);
      const answered = await this.send();
      for (const resolve of waiting) resolve(answered);
      if (!answered && !this.isClosed && this.retry === null) {
        this.retry = setTimeout(() => {
          this.retry = null;
          void this.changed();
        }, this.options.retryMs);
        this.retry.unref();
      }
    }
  }

  private async send(): Promise<boolean> {
    const { apiUrl, nodeId, url } = this.options;
    const closed = [...this.closedRooms];
    this.seq += 1;
    let problem: string;
    try {
      const report: MediaNodeReport = {
        url,
        boot: this.boot,
        bootedAt: this.bootedAt,
        seq: this.seq,
        rooms: this.options.rooms(),
        closed,
        edges: this.options.edges(),
      };
      const token = await new SignJWT({})
        .setProtectedHeader({ alg: 'HS256' })
        .setAudience(MEDIA_CALLBACK_AUDIENCE)
        .setIssuedAt()
        .setExpirationTime(`${TOKEN_TTL_S}s`)
        .sign(this.key);
      const response = await this.options.fetch(`${apiUrl}${toPath(ROUTES.mediaNodeReport, { nodeId })}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
        body: JSON.stringify(report),
        signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
      });
      if (response.ok) {
        const answer = AnswerSchema.parse(await response.json());
        this.closedRooms = this.closedRooms.filter((room) => !closed.includes(room));
        this.reached();
        this.options.revoke(answer.data);
        return true;
      }
      problem = refusal(response.status, apiUrl);
    } catch (error) {
      problem =
        `cannot reach the API server at API_URL=${apiUrl} (${(error as Error).message}): classes cannot go ` +
        'live until it answers; check that it runs and that API_URL names its port (npm start derives it ' +
        'from PORT)';
    }
    this.failed(problem);
    return false;
  }

  private reached(): void {
    if (this.reachable !== true) {
      this.options.info(
        `media: reporting to the API server at ${this.options.apiUrl} as node ${this.options.nodeId} ` +
          `(reachable at ${this.options.url})${this.reachable === false ? ': it answers again' : ''}`,
      );
    }
    this.reachable = true;
    this.problem = '';
  }

  private failed(problem: string): void {
    if (this.reachable !== false || problem !== this.problem) this.options.warn(`media: ${problem}`);
    this.reachable = false;
    this.problem = problem;
  }
}

/** What an answer other than 200 means, in one line. */
function refusal(status: number, apiUrl: string): string {
  if (status === 401) {
    return `the API server at ${apiUrl} refused this node's report (401): MEDIA_SECRET differs between the two services`;
  }
  if (status === 404) {
    return `${apiUrl} answered 404 to this node's report: API_URL does not name the API server`;
  }
  return `the API server at ${apiUrl} answered ${status} to this node's report; trying again`;
}
