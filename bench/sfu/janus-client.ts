// A small client of Janus's HTTP API for the benchmark (`--server janus`): one session, one plugin handle, and
// plugin messages whose asynchronous answer (an event carrying the same transaction) comes by long poll.
import { randomUUID } from 'node:crypto';

const POLL_EVENTS = 10;
let pollFailureShown = false;
const REQUEST_TIMEOUT_MS = 30_000;

type Jsep = { type: 'offer' | 'answer'; sdp: string; rid_order?: 'hml' | 'lmh' };
type JanusReply = {
  janus: string;
  transaction?: string;
  sender?: number;
  data?: { id: number };
  error?: { code: number; reason: string };
  plugindata?: { data: Record<string, unknown> };
  jsep?: Jsep;
};
/** A VideoRoom event: its data, and the SDP Janus sent with it, if any. */
export type PluginEvent = { data: Record<string, unknown>; jsep: Jsep | undefined };

async function post(url: string, body: Record<string, unknown>): Promise<JanusReply> {
  const response = await fetch(url, {
    method: 'POST',
    body: JSON.stringify({ ...body, transaction: body.transaction ?? randomUUID() }),
    signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
  });
  const reply = (await response.json()) as JanusReply;
  if (reply.janus === 'error') throw new Error(`janus ${String(body.janus)}: ${reply.error?.reason}`);
  return reply;
}

/** A Janus session with one handle of the VideoRoom plugin. */
export class JanusVideoRoomHandle {
  private readonly waiting = new Map<string, (event: PluginEvent) => void>();
  private closed = false;
  private readonly sessionUrl: string;
  private readonly handleUrl: string;

  private constructor(sessionUrl: string, handleUrl: string) {
    this.sessionUrl = sessionUrl;
    this.handleUrl = handleUrl;
    void this.poll();
  }

  static async attach(url: string): Promise<JanusVideoRoomHandle> {
    const session = await post(url, { janus: 'create' });
    const sessionUrl = `${url}/${session.data?.id}`;
    const handle = await post(sessionUrl, { janus: 'attach', plugin: 'janus.plugin.videoroom' });
    return new JanusVideoRoomHandle(sessionUrl, `${sessionUrl}/${handle.data?.id}`);
  }

  /** A request the plugin answers at once (create, exists...): its data. */
  async request(body: Record<string, unknown>): Promise<Record<string, unknown>> {
    const reply = await post(this.handleUrl, { janus: 'message', body });
    const data = reply.plugindata?.data ?? {};
    if (typeof data.error === 'string') throw new Error(`videoroom ${String(body.request)}: ${data.error}`);
    return data;
  }

  /** A request answered by an event (join, configure, start): that event. */
  async message(body: Record<string, unknown>, jsep?: Jsep): Promise<PluginEvent> {
    const transaction = randomUUID();
    const event = new Promise<PluginEvent>((resolve, reject) => {
      const timer = setTimeout(() => {
        this.waiting.delete(transaction);
        reject(new Error(`videoroom ${String(body.request)}: no answer in ${REQUEST_TIMEOUT_MS} ms`));
      }, REQUEST_TIMEOUT_MS);
      this.waiting.set(transaction, (e) => {
        clearTimeout(timer);
        resolve(e);
      });
    });
    await post(this.handleUrl, { janus: 'message', transaction, body, ...(jsep ? { jsep } : {}) });
    const answer = await event;
    if (typeof answer.data.error === 'string')
      throw new Error(`videoroom ${String(body.request)}: ${answer.data.error}`);
    return answer;
  }

  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    await post(this.sessionUrl, { janus: 'destroy' }).catch(() => undefined); // Janus may be gone already
  }

  /** Long polls the session's events while it is open and hands each plugin event to its request. */
  private async poll(): Promise<void> {
    while (!this.closed) {
      let events: JanusReply[];
      try {
        const response = await fetch(`${this.sessionUrl}?maxev=${POLL_EVENTS}&rid=${Date.now()}`);
        const body = (await response.json()) as JanusReply | JanusReply[];
        events = Array.isArray(body) ? body : [body];
      } catch (error) {
        // Once per process: when Janus stops before the students leave, every session's poll fails at once.
        if (!this.closed && !pollFailureShown)
          console.error('bench janus: event poll failed', (error as Error).message);
        pollFailureShown = true;
        return;
      }
      for (const event of events) {
        if (event.janus !== 'event' || event.transaction === undefined) continue;
        const resolve = this.waiting.get(event.transaction);
        this.waiting.delete(event.transaction);
        resolve?.({ data: event.plugindata?.data ?? {}, jsep: event.jsep });
      }
    }
  }
}
