import { io, type Socket } from 'socket.io-client';
import {
  LIVE_SOCKET_PATH,
  type LiveAnswer,
  type LiveErrorCode,
  type LiveEventName,
  type LiveEventPayload,
  type LiveRequestData,
  type LiveRequestName,
  type LiveRequestPayload,
} from '@sea/contract/live';

/** Where the signalling connection stands. */
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
};

export type SignallingOptions = {
  /** The media service's base URL (the live ticket's `mediaUrl`). */
  url: string;
  /** A fresh live ticket, asked for at every (re)connection. */
  getTicket: () => Promise<string>;
  requestTimeoutMs?: number;
};

const REQUEST_TIMEOUT_MS = 15_000;
const offline = () => new LiveRequestError('offline', '미디어 서버와 연결이 끊겼어요.');
const SERVER_EVENTS: LiveEventName[] = ['newProducer', 'producerClosed', 'teacherLeft', 'viewerCount'];

/**
 * The live room's signalling over socket.io (the only web file importing socket.io-client): typed requests
 * answered `{ data }` or `{ error }` (thrown as {@link LiveRequestError}), typed server events, automatic
 * reconnection with a fresh ticket (then `reconnected`), and an idempotent {@link close}. A refused ticket ends
 * in `failed`; the server closing the connection (room over, replaced) in `disconnected`.
 */
export class SignallingClient {
  readonly #socket: Socket;
  readonly #timeoutMs: number;
  readonly #listeners = new Map<keyof SignallingEvents, Set<(value: never) => void>>();
  #state: SignallingState = 'connecting';
  #everConnected = false;
  /** Requests waiting for an answer: rejected when the connection drops. */
  readonly #pending = new Set<() => void>();
  #closed = false;

  constructor(options: SignallingOptions) {
    this.#timeoutMs = options.requestTimeoutMs ?? REQUEST_TIMEOUT_MS;
    this.#socket = io(options.url, {
      path: LIVE_SOCKET_PATH,
      transports: ['websocket'],
      auth: (send) => {
        options.getTicket().then(
          (ticket) => send({ ticket }),
          () => send({}), // refused as unauthorized by the server; the state becomes `failed`
        );
      },
      // A lost network is noticed by the server's heart-beat within about 5 s (media service); then a new
      // attempt at least every 1.25 s (1 s, give or take a quarter so that many clients do not come back in
      // step), so the room is back within seconds of the network.
      reconnectionDelay: 250,
      reconnectionDelayMax: 1_000,
      randomizationFactor: 0.25,
      timeout: 2_000,
    });
    this.#socket.on('connect', () => {
      this.#setState('connected');
      if (this.#everConnected) this.#emit('reconnected', undefined);
      this.#everConnected = true;
    });
    this.#socket.on('connect_error', () => {
      // A middleware refusal (bad ticket) leaves the socket inactive: socket.io will not retry it.
      this.#setState(this.#socket.active ? 'connecting' : 'failed');
    });
    this.#socket.on('disconnect', (reason) => {
      for (const drop of [...this.#pending]) drop();
      this.#setState(
        reason === 'io server disconnect' || reason === 'io client disconnect'
          ? 'disconnected'
          : 'connecting',
      );
    });
    for (const name of SERVER_EVENTS) {
      this.#socket.on(name, (payload: unknown) => this.#emit(name, payload as SignallingEvents[typeof name]));
    }
  }

  get state(): SignallingState {
    return this.#state;
  }

  /**
   * Sends a request and resolves with its `data`; rejects with a {@link LiveRequestError}: the server's
   * refusal, `timeout`, or `offline` at once when the connection was lost or drops before the answer (a request
   * must not wait for its timeout, nor reach the server's next session after a reconnection).
   */
  async request<N extends LiveRequestName>(
    name: N,
    payload: LiveRequestPayload<N>,
  ): Promise<LiveRequestData<N>> {
    // Before the first connection a request waits for it (socket.io buffers it); after a loss it fails.
    if (this.#closed || (this.#everConnected && !this.#socket.connected)) throw offline();
    let answer: LiveAnswer<LiveRequestData<N>>;
    let dropped: (() => void) | undefined;
    try {
      answer = await Promise.race([
        this.#socket.timeout(this.#timeoutMs).emitWithAck(name, payload) as Promise<
          LiveAnswer<LiveRequestData<N>>
        >,
        new Promise<never>((_, reject) => {
          dropped = () => reject(offline());
          this.#pending.add(dropped);
        }),
      ]);
    } catch (error) {
      if (error instanceof LiveRequestError) throw error;
      throw new LiveRequestError('timeout', '미디어 서버가 응답하지 않아요.');
    } finally {
      if (dropped) this.#pending.delete(dropped);
    }
    if ('error' in answer) throw new LiveRequestError(answer.error.code, answer.error.message);
    return answer.data;
  }

  /** Listens to an event; returns the function that stops listening. */
  on<K extends keyof SignallingEvents>(event: K, listener: (value: SignallingEvents[K]) => void): () => void {
    const set = this.#listeners.get(event) ?? new Set();
    this.#listeners.set(event, set);
    set.add(listener as (value: never) => void);
    return () => set.delete(listener as (value: never) => void);
  }

  /** Disconnects for good. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    for (const drop of [...this.#pending]) drop();
    this.#socket.disconnect();
    this.#setState('disconnected');
    this.#listeners.clear();
  }

  #setState(state: SignallingState): void {
    if (this.#state === state || (this.#closed && state !== 'disconnected')) return;
    this.#state = state;
    this.#emit('stateChanged', state);
  }

  #emit<K extends keyof SignallingEvents>(event: K, value: SignallingEvents[K]): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) {
      (listener as (value: SignallingEvents[K]) => void)(value);
    }
  }
}

/** The part of a {@link SignallingClient} the room classes use (tests inject a fake). */
export type SignallingLike = Pick<SignallingClient, 'request' | 'on'>;
