import { io, type Socket } from 'socket.io-client';
import {
  LIVE_ERROR_CODES,
  LIVE_HEARTBEAT_MS,
  LIVE_SOCKET_PATH,
  type LiveAnswer,
  type LiveErrorCode,
  type LiveEventName,
  type LiveEventPayload,
  type LiveRequestData,
  type LiveRequestName,
  type LiveRequestPayload,
} from '@sea/contract/live';
import { Emitter } from '../../lib/emitter.ts';
import { LIVE_TEXTS } from './texts.ts';

/**
 * Where the signalling connection stands. `connecting` also while the connection is open but silent: nothing
 * heard from the media service for {@link SILENT_AFTER_MS} (the network stopped passing packets; the
 * connection itself is dropped only after the heart-beat's timeout, some 3 s).
 */
export type SignallingState = 'connecting' | 'connected' | 'disconnected' | 'failed';

/** A request the media service refused (`code` from the contract; `message` is Korean, fit to show). */
export class LiveRequestError extends Error {
  readonly code: LiveErrorCode | 'timeout' | 'offline';
  constructor(code: LiveErrorCode | 'timeout' | 'offline', message: string) {
    super(message);
    this.code = code;
  }
}

/** Events of a {@link SignallingClient}: the server's events plus the connection's own. */
export type SignallingEvents = { [N in LiveEventName]: LiveEventPayload<N> } & {
  /** The state changed. */
  stateChanged: SignallingState;
  /** Connected again after a loss: the room must be rejoined (the server forgot the old session). */
  reconnected: undefined;
  /**
   * The connection was lost (not closed by either side): the media service may be dying and coming back, so
   * for {@link OUTAGE_WAIT_MS} a refused entry (`notLive`: the teacher is not back yet) is not the end.
   */
  connectionLost: undefined;
};

export type SignallingOptions = {
  /** The media service's base URL (the live ticket's `mediaUrl`). */
  url: string;
  /** A fresh live ticket, asked for at every (re)connection. */
  getTicket: () => Promise<string>;
  /**
   * Where to connect now, from a fresh ticket: asked when the connection to the server at `unreachable` was
   * lost, and when a reconnection attempt could not reach it (its media node may be gone or hung, and the API
   * server names another one). A different URL is used from the next attempt on, with this ticket. Absent:
   * always {@link url}.
   */
  relocate?: (unreachable: string) => Promise<{ url: string; ticket: string }>;
  requestTimeoutMs?: number;
  /** Tests shorten {@link RESTART_WAIT_MS}. */
  restartWaitMs?: number;
};

const REQUEST_TIMEOUT_MS = 15_000;
/**
 * After the media node said it stops (`nodeStopped`), how long the room waits for it (or another node) to be
 * back: the node may be down, or up before the teacher has started the room again.
 */
export const RESTART_WAIT_MS = 180_000;
/**
 * After the connection was lost (a media service killed and started again, a network gone), how long the
 * room waits for the teacher's room to be open again: the API server keeps the lecture's session for its
 * teacher for 20 s (MEDIA_NODE_TIMEOUT_MS), the media service a teacher's room for 10 s (TEACHER_GRACE_MS).
 */
export const OUTAGE_WAIT_MS = 30_000;
/**
 * An open connection that has heard nothing (no ping of the heart-beat, no event, no answer) for this long is
 * reported `connecting` until something comes: the room shows it is reconnecting within 1-1.5 s of a silent
 * network, while the connection itself is dropped only at the heart-beat's timeout (2.5-3 s), so a late ping
 * costs no reconnection. Three pings: on this 2-core machine, loaded (load average 14) and with the server's
 * thread busy in 30 ms bursts, the longest gap between two pings was 0.66 s in 3 000.
 */
export const SILENT_AFTER_MS = 3 * LIVE_HEARTBEAT_MS;
/**
 * A silence check that runs this much later than it was due finds a page that was busy itself (its queued
 * messages not read yet): it looks again shortly rather than take its own delay for the network's silence.
 */
const LATE_CHECK_MS = 250;
/** Within that wait, a new connection this long after the server closed one (an entry refused for now). */
const RESTART_RETRY_MS = 1_000;
/**
 * How long the attempts after a lost connection wait for the fresh ticket they asked for, rather than go to the
 * lost node: through a proxy, an attempt at a node whose host is silent waits out the proxy's connect timeout
 * (1 s in deploy/nginx) before the next attempt may use the ticket's node. A ticket answers within a second
 * even when the API server it first met is gone too (deploy/nginx asks the other after 1 s).
 */
export const RELOCATE_WAIT_MS = 2_500;
const offline = () => new LiveRequestError('offline', LIVE_TEXTS.signalling.offline);
const SERVER_EVENTS: LiveEventName[] = [
  'newProducer',
  'producerClosed',
  'teacherLeft',
  'viewerCount',
  'participants',
  'recordingState',
  'speakerChanged',
  'nodeStopped',
];

/** The server's refusal of a connection (its middleware's `{ code, message }`), as a request error. */
function refusalOf(error: unknown): LiveRequestError {
  const data: unknown = typeof error === 'object' && error !== null ? Reflect.get(error, 'data') : undefined;
  if (typeof data === 'object' && data !== null) {
    const { code, message } = data as { code?: unknown; message?: unknown };
    const known = LIVE_ERROR_CODES.find((name) => name === code);
    if (known && typeof message === 'string' && message !== '') return new LiveRequestError(known, message);
  }
  return new LiveRequestError('unauthorized', LIVE_TEXTS.signalling.refused);
}

/**
 * The live room's signalling over socket.io (the only web file importing socket.io-client): typed requests
 * answered `{ data }` or `{ error }` (thrown as {@link LiveRequestError}), typed server events, automatic
 * reconnection with a fresh ticket (then `reconnected`), and an idempotent {@link close}. A refused ticket ends
 * in `failed`, and the requests waiting for the connection fail at once with the refusal; the server closing
 * the connection (room over, replaced) ends in `disconnected`. When the connection is lost, and when the
 * server cannot be reached while reconnecting, it asks {@link SignallingOptions.relocate} where to go: a class
 * served by several media nodes comes back on another node when its node is gone or hung.
 */
export class SignallingClient {
  readonly #socket: Socket;
  readonly #timeoutMs: number;
  readonly #events = new Emitter<SignallingEvents>();
  #state: SignallingState = 'connecting';
  #everConnected = false;
  /** Requests waiting for an answer: rejected when the connection drops or is refused. */
  readonly #pending = new Set<(error: Error) => void>();
  /** Why the last ticket could not be had (an HttpError of the API server), until a ticket is had again. */
  #ticketError: Error | null = null;
  /** A ticket {@link SignallingOptions.relocate} got, for the next connection. */
  #nextTicket: string | null = null;
  #relocating = false;
  /** While set, the attempts wait for a relocation's answer (see {@link holdAttempts}). */
  #attemptsHeld: ReturnType<typeof setTimeout> | undefined;
  /** Until when (Date.now()) a restart of the media node is waited out; 0 when none is under way. */
  #restartUntil = 0;
  #restartTimer: ReturnType<typeof setTimeout> | undefined;
  /** When (Date.now()) the media service was last heard on this connection. */
  #heardAt = 0;
  #silenceTimer: ReturnType<typeof setTimeout> | undefined;
  /** The connection is open but has been silent for SILENT_AFTER_MS (the state says `connecting`). */
  #silent = false;
  /** The refusal that ended the connection for good: every later request fails with it. */
  #refusal: Error | null = null;
  #closed = false;

  constructor(options: SignallingOptions) {
    this.#timeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    this.#socket = io(options.url, {
      path: LIVE_SOCKET_PATH,
      transports: ['websocket'],
      auth: (send) => {
        const next = this.#nextTicket;
        this.#nextTicket = null;
        (next === null ? options.getTicket() : Promise.resolve(next)).then(
          (ticket) => {
            this.#ticketError = null;
            send({ ticket });
          },
          (error: unknown) => {
            // Refused as unauthorized by the server; the state becomes `failed`, requests fail with this.
            this.#ticketError = error instanceof Error ? error : new Error(String(error));
            send({});
          },
        );
      },
      // A lost network drops the connection at the heart-beat's timeout, within 3 s (media service); then a new
      // attempt at least every 1.25 s (1 s, give or take a quarter so that many clients do not come back in
      // step), so the room is back within seconds of the network.
      reconnectionDelay: 250,
      reconnectionDelayMax: 1_000,
      randomizationFactor: 0.25,
      timeout: 2_000,
    });
    this.#socket.on('connect', () => {
      this.#silent = false;
      this.#heard();
      this.#setState('connected');
      if (this.#everConnected) this.#events.emit('reconnected', undefined);
      this.#everConnected = true;
    });
    this.#socket.on('connect_error', (error) => {
      if (this.#socket.active) {
        this.#setState('connecting');
        if (options.relocate) this.#relocate(options.relocate);
        return;
      }
      // A middleware refusal (bad ticket) leaves the socket inactive: socket.io will not retry it. Requests
      // buffered for the connection would otherwise wait for their timeout.
      this.#refusal = this.#ticketError ?? refusalOf(error);
      for (const drop of [...this.#pending]) drop(this.#refusal);
      this.#setState('failed');
    });
    this.#socket.on('nodeStopped', () => {
      this.#restartUntil = Date.now() + (options.restartWaitMs ?? RESTART_WAIT_MS);
    });
    // Any sign of life: the heart-beat's pings, events and answers.
    this.#socket.io.on('ping', () => this.#heard());
    this.#socket.io.on('packet', () => this.#heard());
    this.#socket.on('disconnect', (reason) => {
      this.#stopWatchingSilence();
      this.#silent = false;
      for (const drop of [...this.#pending]) drop(offline());
      if (reason === 'io server disconnect' && Date.now() < this.#restartUntil && !this.#closed) {
        // The restarted node refused an entry for now (its room is not open again yet) and closed the
        // connection: connect again soon, with a fresh ticket, as after an outage.
        this.#setState('connecting');
        clearTimeout(this.#restartTimer);
        this.#restartTimer = setTimeout(() => {
          if (!this.#closed) this.#socket.connect();
        }, RESTART_RETRY_MS);
        return;
      }
      const lost = reason !== 'io server disconnect' && reason !== 'io client disconnect';
      this.#setState(lost ? 'connecting' : 'disconnected');
      if (lost && !this.#closed) {
        this.#restartUntil = Math.max(this.#restartUntil, Date.now() + OUTAGE_WAIT_MS);
        this.#events.emit('connectionLost', undefined);
      }
      // The node may be gone or hung: ask where to go before the first attempt, not after it. A hung node's
      // kernel still accepts connections (or a proxy in front of it waits to connect), and an attempt there
      // would wait out its whole timeout: the attempts wait for the answer (at most RELOCATE_WAIT_MS).
      if (lost && options.relocate && !this.#closed) {
        this.#holdAttempts();
        this.#relocate(options.relocate);
      }
    });
    for (const name of SERVER_EVENTS) {
      this.#socket.on(name, (payload: unknown) =>
        this.#events.emit(name, payload as SignallingEvents[typeof name]),
      );
    }
  }

  get state(): SignallingState {
    return this.#state;
  }

  /**
   * Sends a request and resolves with its `data`; rejects with a {@link LiveRequestError}: the server's
   * refusal of the request or of the connection, `timeout`, or `offline` at once when the connection was lost or
   * drops before the answer (a request must not wait for its timeout, nor reach the server's next session after
   * a reconnection). When the connection was refused because no ticket could be had, it rejects with the
   * ticket's own error (an `HttpError`: 401, 404, 418...).
   */
  async request<N extends LiveRequestName>(
    name: N,
    payload: LiveRequestPayload<N>,
  ): Promise<LiveRequestData<N>> {
    if (this.#refusal && !this.#closed) throw this.#refusal;
    // Before the first connection a request waits for it (socket.io buffers it); after a loss it fails.
    if (this.#closed || (this.#everConnected && !this.#socket.connected)) throw offline();
    let answer: LiveAnswer<LiveRequestData<N>>;
    let dropped: ((error: Error) => void) | undefined;
    let dropReason: Error | undefined;
    try {
      answer = await Promise.race([
        this.#socket.timeout(this.#timeoutMs).emitWithAck(name, payload) as Promise<
          LiveAnswer<LiveRequestData<N>>
        >,
        new Promise<never>((_, reject) => {
          dropped = (error) => {
            dropReason = error;
            reject(error);
          };
          this.#pending.add(dropped);
        }),
      ]);
    } catch (error) {
      if (dropReason) throw dropReason;
      if (error instanceof LiveRequestError) throw error;
      throw new LiveRequestError('timeout', LIVE_TEXTS.signalling.timeout);
    } finally {
      if (dropped) this.#pending.delete(dropped);
    }
    if ('error' in answer) throw new LiveRequestError(answer.error.code, answer.error.message);
    return answer.data;
  }

  /** Listens to an event; returns the function that stops listening. */
  on<K extends keyof SignallingEvents>(event: K, listener: (value: SignallingEvents[K]) => void): () => void {
    return this.#events.on(event, listener);
  }

  /** Disconnects for good. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#restartTimer);
    clearTimeout(this.#attemptsHeld);
    this.#attemptsHeld = undefined;
    this.#stopWatchingSilence();
    for (const drop of [...this.#pending]) drop(offline());
    this.#socket.disconnect();
    this.#setState('disconnected');
    this.#events.clear();
  }

  /** The media service was heard: a silence is over, and the next one is watched for. */
  #heard(): void {
    if (this.#closed) return;
    this.#heardAt = Date.now();
    if (this.#silent && this.#socket.connected) {
      this.#silent = false;
      this.#setState('connected');
    }
    // The watch reads #heardAt when it wakes, so a packet only starts one when none is running (every packet
    // of the connection passes here: no timer is replaced per packet).
    if (this.#silenceTimer === undefined) this.#watchSilence(SILENT_AFTER_MS);
  }

  #stopWatchingSilence(): void {
    clearTimeout(this.#silenceTimer);
    this.#silenceTimer = undefined;
  }

  #watchSilence(delayMs: number): void {
    const dueAt = Date.now() + delayMs;
    this.#silenceTimer = setTimeout(() => {
      this.#silenceTimer = undefined;
      if (this.#closed || !this.#socket.connected || this.#silent) return;
      const now = Date.now();
      const quietMs = now - this.#heardAt;
      if (quietMs < SILENT_AFTER_MS) this.#watchSilence(SILENT_AFTER_MS - quietMs);
      else if (now - dueAt > LATE_CHECK_MS) this.#watchSilence(LATE_CHECK_MS);
      else {
        this.#silent = true;
        this.#setState('connecting');
      }
    }, delayMs);
  }

  /** Asks where to connect (one question at a time); a new URL applies from the next attempt on. */
  #relocate(relocate: NonNullable<SignallingOptions['relocate']>): void {
    if (this.#relocating || this.#closed) return;
    this.#relocating = true;
    relocate(String(Reflect.get(this.#socket.io, 'uri'))).then(
      ({ url, ticket }) => {
        this.#relocating = false;
        if (this.#closed) return;
        this.#nextTicket = ticket;
        // socket.io keeps the URL its manager was made with and reopens it on every attempt; the manager reads
        // it afresh each time, so the next attempt goes to the node the fresh ticket names.
        Reflect.set(this.#socket.io, 'uri', url);
        this.#releaseAttempts();
      },
      () => {
        // No ticket now (the API server is unreachable too): the attempts go on to the same URL, and the
        // next failed one asks again.
        this.#relocating = false;
        this.#releaseAttempts();
      },
    );
  }

  /**
   * Keeps socket.io from attempting the lost node while a fresh ticket is on its way (its manager schedules
   * its first attempt after the `disconnect` handlers return), for at most RELOCATE_WAIT_MS.
   */
  #holdAttempts(): void {
    if (this.#attemptsHeld) return;
    this.#attemptsHeld = setTimeout(() => this.#releaseAttempts(), RELOCATE_WAIT_MS);
    this.#socket.io.reconnection(false);
  }

  /** Lets the attempts go on (at once, to the URL known now) after {@link holdAttempts}. */
  #releaseAttempts(): void {
    if (!this.#attemptsHeld) return;
    clearTimeout(this.#attemptsHeld);
    this.#attemptsHeld = undefined;
    this.#socket.io.reconnection(true);
    if (!this.#closed && !this.#socket.connected) this.#socket.connect();
  }

  #setState(state: SignallingState): void {
    if (this.#state === state || (this.#closed && state !== 'disconnected')) return;
    this.#state = state;
    this.#events.emit('stateChanged', state);
  }
}

/** The part of a {@link SignallingClient} the room classes use (tests inject a fake). */
export type SignallingLike = Pick<SignallingClient, 'request' | 'on'>;
