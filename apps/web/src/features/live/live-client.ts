import { Emitter } from '../../lib/emitter.ts';
import {
  LiveRequestError,
  OUTAGE_WAIT_MS,
  RESTART_WAIT_MS,
  type SignallingLike,
} from './signalling-client.ts';

/** After a failed recovery, the next attempt waits this long. */
export const RECOVERY_RETRY_MS = 1_000;
/** Recovery attempts in a row before giving up (a new signalling reconnection starts over). */
export const RECOVERY_ATTEMPTS = 30;
/**
 * How long a media connection may stay `disconnected` before it is replaced by a fresh one. The browser's ICE
 * usually finds its path again within a second or two of the network's return; when the network itself went
 * away (its interface down, a Wi-Fi change) the browser may wait some 15 s before it says `failed`.
 */
export const DISCONNECTED_WAIT_MS = 4_000;
/**
 * How long a media connection may stay `connecting` before it is replaced by another. Over loopback or a TURN
 * relay it connects in well under a second, a few on a loaded machine; one still connecting after this (a lost
 * DTLS flight, a relay that never answered) would otherwise wait as long as the browser likes, with the student
 * looking at a black stage.
 */
export const CONNECT_WAIT_MS = 15_000;

export type LiveClientOptions = {
  /** The signalling connection (its requests and events); tests inject a fake. */
  signalling: SignallingLike;
  /** Tests may inject a factory; the browser's RTCPeerConnection otherwise. */
  createPeerConnection?: (config: RTCConfiguration) => RTCPeerConnection;
  /** Tests shorten the pause between recovery attempts. */
  recoveryRetryMs?: number;
  /** Tests shorten {@link DISCONNECTED_WAIT_MS}. */
  disconnectedWaitMs?: number;
  /** Tests shorten {@link CONNECT_WAIT_MS}. */
  connectWaitMs?: number;
  /**
   * After `nodeStopped`, how long recovery goes on whatever fails (the node, or another, comes back and the
   * teacher starts the room again meanwhile, so a `notLive` is not the end yet). Tests shorten it.
   */
  restartWaitMs?: number;
};

/**
 * Where a room's media side stands: `connecting` while entering or recovering (also while the media connection
 * is interrupted), `connected` once entered and while the connection holds, `restarting` from the media node's
 * `nodeStopped` until the room is entered again (for at most {@link RESTART_WAIT_MS}), `failed` when entering
 * failed or recovery gave up.
 */
export type MediaState = 'connecting' | 'connected' | 'restarting' | 'failed';

/** The events every live client has. */
export type LiveClientEvents = {
  /** The media side's state changed (see {@link MediaState}). */
  mediaStateChanged: MediaState;
};

/**
 * What the teacher's and the student's side of a live room share, without any UI framework: typed events,
 * one task at a time, one media connection, and recovery. After a signalling reconnection (the server forgot
 * the old session) or when the media connection fails, {@link connect} runs again on a fresh connection; a
 * failed attempt is retried every second until it works, {@link isFinal} says the room is over, or the client
 * is closed; within a wait after the signalling's `connectionLost` or `nodeStopped` nothing is final (the
 * teacher's room may not be open again yet). The {@link mediaState} follows all of it. {@link close} is idempotent.
 */
export abstract class LiveClient<Events extends LiveClientEvents & Record<string, unknown>> {
  protected readonly signalling: SignallingLike;
  readonly #createPeerConnection: (config: RTCConfiguration) => RTCPeerConnection;
  readonly #retryMs: number;
  readonly #disconnectedWaitMs: number;
  #disconnectedTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #connectWaitMs: number;
  #connectTimer: ReturnType<typeof setTimeout> | undefined;
  readonly #events = new Emitter<Events>();
  readonly #unsubscribes: (() => void)[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #pc: RTCPeerConnection | null = null;
  #retryTimer: ReturnType<typeof setTimeout> | undefined;
  #attempts = 0;
  #recovering = false;
  #mediaState: MediaState = 'connecting';
  readonly #restartWaitMs: number;
  /** Until when (Date.now()) recovery waits out a restart of the media node; 0 when none is under way. */
  #restartUntil = 0;
  /** Until when (Date.now()) a refused entry is not final after a lost connection (see OUTAGE_WAIT_MS). */
  #outageUntil = 0;
  #closed = false;

  constructor(options: LiveClientOptions) {
    this.signalling = options.signalling;
    this.#createPeerConnection = options.createPeerConnection ?? ((config) => new RTCPeerConnection(config));
    this.#retryMs = options.recoveryRetryMs ?? RECOVERY_RETRY_MS;
    this.#disconnectedWaitMs = options.disconnectedWaitMs ?? DISCONNECTED_WAIT_MS;
    this.#connectWaitMs = options.connectWaitMs ?? CONNECT_WAIT_MS;
    this.#restartWaitMs = options.restartWaitMs ?? RESTART_WAIT_MS;
    this.listen(
      this.signalling.on('reconnected', () => this.#recover(true)),
      this.signalling.on('connectionLost', () => {
        this.#outageUntil = Date.now() + OUTAGE_WAIT_MS;
      }),
      this.signalling.on('nodeStopped', () => {
        this.#restartUntil = Date.now() + this.#restartWaitMs;
        this.#setMediaState('restarting');
      }),
    );
  }

  /** The media connection in use (for statistics). */
  get peerConnection(): RTCPeerConnection | null {
    return this.#pc;
  }

  /** Where the media side stands now; changes come as `mediaStateChanged`. */
  get mediaState(): MediaState {
    return this.#mediaState;
  }

  /** Listens to an event; returns the function that stops listening. */
  on<K extends keyof Events>(event: K, listener: (value: Events[K]) => void): () => void {
    return this.#events.on(event, listener);
  }

  /** Closes the media connection (the signalling client is the caller's). Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearTimeout(this.#retryTimer);
    clearTimeout(this.#disconnectedTimer);
    clearTimeout(this.#connectTimer);
    this.#unsubscribes.forEach((unsubscribe) => unsubscribe());
    this.#pc?.close();
    this.#pc = null;
    this.#events.clear();
  }

  protected get closed(): boolean {
    return this.#closed;
  }

  /** Enters the room and sets up a fresh media connection with {@link openPeerConnection}. */
  protected abstract connect(): Promise<void>;

  /** Whether a failed {@link connect} means the room is over (no retry). */
  protected abstract isFinal(error: unknown): boolean;

  /** Called once when recovery ends for good (the room is over, or attempts ran out). */
  protected abstract onGiveUp(error: unknown): void;

  /** Whether recovery should stop watching (the room ended on purpose). */
  protected get finished(): boolean {
    return this.#closed;
  }

  /** Enters the room: {@link connect} once, after any task queued before; its failure is the caller's. */
  protected enter(): Promise<void> {
    return this.serial(() => this.connect()).then(
      () => {
        if (!this.#recovering) this.#setMediaState('connected');
      },
      (error: unknown) => {
        this.#setMediaState('failed');
        throw error;
      },
    );
  }

  /** Replaces the media connection (closing the old one) and watches it for failure. */
  protected openPeerConnection(config: RTCConfiguration): RTCPeerConnection {
    this.#pc?.close();
    const pc = this.#createPeerConnection(config);
    this.#pc = pc;
    clearTimeout(this.#disconnectedTimer);
    clearTimeout(this.#connectTimer);
    this.#connectTimer = undefined;
    pc.addEventListener('connectionstatechange', () => {
      if (pc !== this.#pc) return;
      clearTimeout(this.#disconnectedTimer);
      // Started connecting (ICE, then DTLS) and not through within CONNECT_WAIT_MS: a fresh connection. A
      // connection with nothing to carry yet (a teacher's before the first stream) stays `new`, and waits.
      if (pc.connectionState !== 'connecting') {
        clearTimeout(this.#connectTimer);
        this.#connectTimer = undefined;
      } else if (this.#connectTimer === undefined) {
        this.#connectTimer = setTimeout(() => {
          this.#connectTimer = undefined;
          if (pc !== this.#pc || pc.connectionState !== 'connecting') return;
          console.warn(
            `live: the media connection did not connect within ${this.#connectWaitMs} ms, trying again`,
          );
          this.#recover(true);
        }, this.#connectWaitMs);
      }
      // The media path broke (network change, server restart): start again on a fresh connection.
      if (pc.connectionState === 'failed') this.#recover(true);
      // Interrupted: the browser is checking whether the path still works; it comes back, or after
      // DISCONNECTED_WAIT_MS a fresh connection replaces it.
      else if (pc.connectionState === 'disconnected') {
        if (!this.#restarting) this.#setMediaState('connecting');
        this.#disconnectedTimer = setTimeout(() => {
          if (pc === this.#pc && pc.connectionState === 'disconnected') this.#recover(true);
        }, this.#disconnectedWaitMs);
      } else if (pc.connectionState === 'connected' && !this.#recovering && this.#mediaState === 'connecting')
        this.#setMediaState('connected');
    });
    return pc;
  }

  /** Keeps `unsubscribe` until {@link close}. */
  protected listen(...unsubscribes: (() => void)[]): void {
    this.#unsubscribes.push(...unsubscribes);
  }

  /** Runs `task` after every task queued before it. */
  protected serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  protected emit<K extends keyof Events>(event: K, value: Events[K]): void {
    this.#events.emit(event, value);
  }

  #setMediaState(state: MediaState): void {
    if (this.#mediaState === state || this.#closed) return;
    this.#mediaState = state;
    // Every client's events include LiveClientEvents; TypeScript cannot see that through the generic.
    (this.emit as (event: 'mediaStateChanged', value: MediaState) => void)('mediaStateChanged', state);
  }

  /** Whether a restart of the media node is being waited out. */
  get #restarting(): boolean {
    return Date.now() < this.#restartUntil;
  }

  #recover(fresh: boolean): void {
    if (this.finished) return;
    clearTimeout(this.#retryTimer);
    this.#retryTimer = undefined;
    if (fresh) this.#attempts = 0;
    this.#attempts += 1;
    this.#recovering = true;
    this.#setMediaState(this.#restarting ? 'restarting' : 'connecting');
    this.serial(() => this.connect()).then(
      () => {
        this.#attempts = 0;
        this.#recovering = false;
        this.#restartUntil = 0;
        this.#outageUntil = 0;
        if (!this.finished) this.#setMediaState('connected');
      },
      (error: unknown) => {
        if (this.finished) return;
        const waiting = this.#restarting || Date.now() < this.#outageUntil;
        if (!waiting && (this.isFinal(error) || this.#attempts >= RECOVERY_ATTEMPTS)) {
          this.#recovering = false;
          this.#setMediaState('failed');
          this.onGiveUp(error);
          return;
        }
        // Told once per recovery, not once a second: while the media service is away, the browser already
        // logs each of the signalling's reconnection attempts, and an attempt made while it is offline only
        // repeats that (at most one line per attempt in the console during an outage).
        const offline = error instanceof LiveRequestError && error.code === 'offline';
        if (this.#attempts === 1 && !offline) console.warn('live: recovery failed, trying again', error);
        this.#retryTimer = setTimeout(() => this.#recover(false), this.#retryMs);
      },
    );
  }
}
