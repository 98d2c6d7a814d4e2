import { SignJWT } from 'jose';
import { MEDIA_CALLBACK_AUDIENCE } from '@sea/contract/live-ticket';
import { ROUTES, toPath } from '@sea/contract/paths';

/** Tells the API server whether a class is live. Never throws and never blocks a room. */
export type LiveStateClient = {
  /** Reports the state; a later call for the same class supersedes an earlier one still being retried. */
  setLive(classId: number, active: boolean): void;
  /** Resolves once every pending report was delivered or given up (tests and shutdown). */
  settled(): Promise<void>;
  /** Stops retrying. */
  close(): void;
};

export type HttpLiveStateOptions = {
  apiUrl: string;
  secret: string;
  /** Waits before retry n (1-based); the last entry repeats until `maxAttempts`. */
  backoffMs?: number[];
  maxAttempts?: number;
  fetch?: typeof fetch;
};

const TOKEN_TTL_S = 60;
const REQUEST_TIMEOUT_MS = 5_000;

/**
 * `PUT {API_URL}/internal/classes/{classId}/live` with `{ active }` and a short-lived bearer token signed with
 * MEDIA_SECRET for the API server's audience. Per class one request at a time, always with the newest state,
 * so a late `true` can never land after a `false`; failures are retried with backoff.
 */
export class HttpLiveStateClient implements LiveStateClient {
  private readonly options: Required<Omit<HttpLiveStateOptions, 'fetch'>> & { fetch: typeof fetch };
  private readonly key: Uint8Array;
  private readonly classes = new Map<
    number,
    { active: boolean; version: number; running: Promise<void> | null }
  >();
  private isClosed = false;

  constructor(options: HttpLiveStateOptions) {
    this.options = {
      backoffMs: [500, 1_000, 2_000, 5_000, 10_000],
      maxAttempts: 10,
      fetch: globalThis.fetch,
      ...options,
    };
    this.key = new TextEncoder().encode(options.secret);
  }

  setLive(classId: number, active: boolean): void {
    if (this.isClosed) return;
    const entry = this.classes.get(classId) ?? { active, version: 0, running: null };
    entry.active = active;
    entry.version += 1;
    this.classes.set(classId, entry);
    entry.running ??= this.deliver(classId, entry).finally(() => {
      entry.running = null;
    });
  }

  async settled(): Promise<void> {
    for (;;) {
      const running = [...this.classes.values()].flatMap((entry) => (entry.running ? [entry.running] : []));
      if (running.length === 0) return;
      await Promise.all(running);
    }
  }

  close(): void {
    this.isClosed = true;
  }

  /** Sends the newest state until it is delivered (or given up), then again if it changed meanwhile. */
  private async deliver(classId: number, entry: { active: boolean; version: number }): Promise<void> {
    const { backoffMs, maxAttempts } = this.options;
    let delivered = 0;
    let attempt = 0;
    while (delivered !== entry.version && !this.isClosed) {
      const { active, version } = entry;
      attempt += 1;
      let done = false;
      try {
        const response = await this.send(classId, active);
        // A 4xx other than 408/429 will not get better by retrying (wrong secret, unknown class).
        done = response.ok || (response.status < 500 && response.status !== 408 && response.status !== 429);
        if (!response.ok && done) {
          console.error(
            `media: the API server refused live=${active} for class ${classId}: ${response.status}`,
          );
        }
      } catch (error) {
        if (attempt >= maxAttempts) console.error('media: could not reach the API server', error);
      }
      if (done || attempt >= maxAttempts) {
        if (!done) console.error(`media: gave up telling the API server live=${active} for class ${classId}`);
        delivered = version;
        attempt = 0;
        continue;
      }
      const wait = backoffMs[Math.min(attempt - 1, backoffMs.length - 1)] ?? 1_000;
      await new Promise((resolve) => setTimeout(resolve, wait));
    }
  }

  private async send(classId: number, active: boolean): Promise<Response> {
    const token = await new SignJWT({})
      .setProtectedHeader({ alg: 'HS256' })
      .setAudience(MEDIA_CALLBACK_AUDIENCE)
      .setIssuedAt()
      .setExpirationTime(`${TOKEN_TTL_S}s`)
      .sign(this.key);
    return this.options.fetch(`${this.options.apiUrl}${toPath(ROUTES.liveInternal, { classId })}`, {
      method: 'PUT',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      body: JSON.stringify({ active }),
      signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
    });
  }
}
