import { WATCH_BEAT_MS } from '@sea/contract/sessions';
import type { WatchBeat } from '@sea/contract/sessions';

/** What the beats read from the player: the video element. */
export type WatchedMedia = EventTarget & { readonly currentTime: number; readonly paused: boolean };

/** Where the page's own events are heard: `window` (pagehide) and `document` (visibilitychange). */
export type WatchPage = {
  window: EventTarget;
  document: EventTarget & { readonly visibilityState: DocumentVisibilityState };
};

/** Sends one beat; `keepalive` when the page may be closing. A failure is the sender's to report. */
export type SendBeat = (beat: WatchBeat, keepalive: boolean) => Promise<unknown>;

/** A seek right after another beat waits for the next regular beat (dragging the seek bar makes many). */
const MIN_SEEK_BEAT_GAP_MS = 1_000;

/**
 * Reports replay watching to the server while the replay page is open: a beat every {@link WATCH_BEAT_MS}
 * while the video plays (or has moved since the last beat), and one on play, pause, seek, page hide and
 * `close()`. A playing beat after a playing one carries `from_s`, where the previous one was: the server
 * credits the seconds of the video from there, each once. Before telling it that playing stopped, a last
 * `playing: true` beat closes the stretch just watched. Beats go out one after
 * another, in order. `close()` is idempotent.
 */
export class WatchBeats {
  readonly #media: WatchedMedia;
  readonly #page: WatchPage;
  readonly #send: SendBeat;
  readonly #onFailed: (error: unknown) => void;
  readonly #timer: ReturnType<typeof setInterval>;
  #queue: Promise<void> = Promise.resolve();
  #lastPlaying = false;
  #lastPosition: number;
  #lastSentAt = Number.NEGATIVE_INFINITY;
  #closed = false;

  constructor(options: {
    media: WatchedMedia;
    page: WatchPage;
    send: SendBeat;
    /** Called with the error of a beat that failed; the next beat sends the state again. */
    onFailed?: (error: unknown) => void;
    intervalMs?: number;
  }) {
    this.#media = options.media;
    this.#page = options.page;
    this.#send = options.send;
    this.#onFailed = options.onFailed ?? (() => undefined);
    this.#lastPosition = this.#position();
    this.#media.addEventListener('play', this.#onPlay);
    this.#media.addEventListener('pause', this.#onStop);
    this.#media.addEventListener('seeked', this.#onSeeked);
    this.#page.window.addEventListener('pagehide', this.#onPageHide);
    this.#page.document.addEventListener('visibilitychange', this.#onVisibility);
    this.#timer = setInterval(this.#onTick, options.intervalMs ?? WATCH_BEAT_MS);
  }

  /** Stops listening and sends the last beat (playing stopped), surviving the page's unload. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    clearInterval(this.#timer);
    this.#media.removeEventListener('play', this.#onPlay);
    this.#media.removeEventListener('pause', this.#onStop);
    this.#media.removeEventListener('seeked', this.#onSeeked);
    this.#page.window.removeEventListener('pagehide', this.#onPageHide);
    this.#page.document.removeEventListener('visibilitychange', this.#onVisibility);
    this.#stop(true);
  }

  /** Resolves once every beat sent so far has been answered (or failed). */
  settled(): Promise<void> {
    return this.#queue;
  }

  #position(): number {
    return Math.round(Math.max(0, this.#media.currentTime) * 10) / 10;
  }

  #beat(playing: boolean, keepalive: boolean): void {
    const beat: WatchBeat = { position_s: this.#position(), playing };
    // Where this tab's stretch began: the server credits the seconds from there (each once), and tells a
    // seek from playing by how far the position moved.
    if (playing && this.#lastPlaying) beat.from_s = this.#lastPosition;
    this.#lastPlaying = playing;
    this.#lastPosition = beat.position_s;
    this.#lastSentAt = Date.now();
    this.#queue = this.#queue.then(() =>
      this.#send(beat, keepalive).then(
        () => undefined,
        (error: unknown) => this.#onFailed(error),
      ),
    );
  }

  /** Playing stopped (pause, page hidden away, close): credit the stretch watched, then say it stopped. */
  #stop(keepalive: boolean): void {
    if (this.#lastPlaying) this.#beat(true, keepalive);
    this.#beat(false, keepalive);
  }

  readonly #onPlay = () => this.#beat(true, false);

  readonly #onStop = () => this.#stop(false);

  readonly #onSeeked = () => {
    if (Date.now() - this.#lastSentAt < MIN_SEEK_BEAT_GAP_MS) return;
    this.#beat(!this.#media.paused, false);
  };

  readonly #onPageHide = () => this.#stop(true);

  readonly #onVisibility = () => {
    // A hidden tab may be discarded without another event: report now, in a request that outlives it.
    if (this.#page.document.visibilityState === 'hidden') this.#beat(!this.#media.paused, true);
  };

  readonly #onTick = () => {
    const playing = !this.#media.paused;
    if (!playing && !this.#lastPlaying && this.#position() === this.#lastPosition) return;
    this.#beat(playing, false);
  };
}
