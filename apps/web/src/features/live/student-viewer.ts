import type { ConsumerInfo, PreferredLayer, StreamKind } from '@sea/contract/live';
import type { IceServer } from '@sea/contract/live-ticket';
import { iceGathered } from './ice-gathering.ts';
import type { SignallingLike } from './signalling-client.ts';

/** Events of a {@link StudentViewer}. */
export type ViewerEvents = {
  /** A stream of the teacher can be played (attach `track` to a media element). */
  trackAdded: { kind: StreamKind; track: MediaStreamTrack };
  /** The teacher stopped that stream. */
  trackRemoved: { kind: StreamKind };
  /** The number of students watching changed. */
  viewerCount: number;
  /** The teacher ended the class (sent once; the server disconnects next). */
  ended: undefined;
};

export type ViewerOptions = {
  /** The signalling connection (its requests and events); tests inject a fake. */
  signalling: SignallingLike;
  createPeerConnection?: (config: RTCConfiguration) => RTCPeerConnection;
};

/**
 * The student's side of a live room, without any UI framework: joins, keeps one receiving connection in step
 * with the streams the teacher publishes (renegotiating as they come and go), resumes every new stream, and
 * applies the chosen webcam quality. After a signalling reconnection, or when the media connection fails, it
 * joins again. {@link close} is idempotent.
 */
export class StudentViewer {
  readonly #signalling: SignallingLike;
  readonly #createPeerConnection: (config: RTCConfiguration) => RTCPeerConnection;
  readonly #listeners = new Map<keyof ViewerEvents, Set<(value: never) => void>>();
  readonly #unsubscribes: (() => void)[] = [];
  /** Current consumers by producer kind. */
  #consumers = new Map<StreamKind, ConsumerInfo>();
  #pc: RTCPeerConnection | null = null;
  #transportId: string | null = null;
  #layer: PreferredLayer = 'auto';
  #queue: Promise<unknown> = Promise.resolve();
  #syncPending = false;
  #ended = false;
  #closed = false;

  constructor(options: ViewerOptions) {
    this.#signalling = options.signalling;
    this.#createPeerConnection = options.createPeerConnection ?? ((config) => new RTCPeerConnection(config));
    this.#unsubscribes.push(
      this.#signalling.on('viewerCount', ({ count }) => this.#emit('viewerCount', count)),
      this.#signalling.on('newProducer', () => this.#scheduleSync()),
      this.#signalling.on('producerClosed', () => this.#scheduleSync()),
      this.#signalling.on('teacherLeft', () => {
        // The room is over: no more renegotiation (the server is about to disconnect).
        this.#ended = true;
        this.#emit('ended', undefined);
      }),
      this.#signalling.on('reconnected', () => void this.#serial(() => this.#join())),
    );
  }

  /** Joins the room and starts receiving what is published. Rejects with `notLive` when the class is not live. */
  join(): Promise<void> {
    return this.#serial(() => this.#join());
  }

  /** Chooses the webcam quality: a fixed layer, or `auto` (follow the bandwidth). Kept for later streams too. */
  async setLayer(layer: PreferredLayer): Promise<void> {
    this.#layer = layer;
    const webcam = this.#consumers.get('webcamVideo');
    if (webcam) await this.#signalling.request('setPreferredLayer', { consumerId: webcam.consumerId, layer });
  }

  /** The receiving connection (for statistics). */
  get peerConnection(): RTCPeerConnection | null {
    return this.#pc;
  }

  /** Listens to an event; returns the function that stops listening. */
  on<K extends keyof ViewerEvents>(event: K, listener: (value: ViewerEvents[K]) => void): () => void {
    const set = this.#listeners.get(event) ?? new Set();
    this.#listeners.set(event, set);
    set.add(listener as (value: never) => void);
    return () => set.delete(listener as (value: never) => void);
  }

  /** Closes the receiving connection (the signalling client is the caller's). Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribes.forEach((unsubscribe) => unsubscribe());
    this.#pc?.close();
    this.#pc = null;
    this.#listeners.clear();
  }

  async #join(): Promise<void> {
    if (this.#closed) return;
    await this.#signalling.request('joinRoom', {});
    const capabilities = await this.#signalling.request('getRouterRtpCapabilities', {});
    const { transportId } = await this.#signalling.request('createConsumerTransport', {});
    this.#pc?.close();
    for (const kind of this.#consumers.keys()) this.#emit('trackRemoved', { kind });
    this.#consumers = new Map();
    this.#transportId = transportId;
    const pc = this.#createPeerConnection({ iceServers: capabilities.iceServers as IceServer[] });
    this.#pc = pc;
    pc.addEventListener('connectionstatechange', () => {
      // The media path broke (network change, server restart): join again with a fresh connection.
      if (pc === this.#pc && pc.connectionState === 'failed' && !this.#closed && !this.#ended) {
        void this.#serial(() => this.#join()).catch((error: unknown) =>
          console.warn('live: rejoin failed', error),
        );
      }
    });
    await this.#sync();
  }

  /** Several producer events in a row cost one renegotiation. */
  #scheduleSync(): void {
    if (this.#syncPending || this.#closed || this.#ended) return;
    this.#syncPending = true;
    void this.#serial(async () => {
      this.#syncPending = false;
      await this.#sync();
    }).catch((error: unknown) => console.warn('live: could not update the streams', error));
  }

  async #sync(): Promise<void> {
    const pc = this.#pc;
    const transportId = this.#transportId;
    if (!pc || !transportId || this.#closed || this.#ended) return;
    const offer = await this.#signalling.request('consume', { transportId });
    await pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    await pc.setLocalDescription(await pc.createAnswer());
    await iceGathered(pc);
    await this.#signalling.request('connectConsumerTransport', {
      transportId,
      sdp: pc.localDescription?.sdp ?? '',
    });
    const next = new Map(offer.consumers.map((c) => [c.producerKind, c]));
    for (const [kind, old] of this.#consumers) {
      if (next.get(kind)?.consumerId !== old.consumerId) this.#emit('trackRemoved', { kind });
    }
    for (const [kind, consumer] of next) {
      if (this.#consumers.get(kind)?.consumerId === consumer.consumerId) continue;
      const transceiver = pc.getTransceivers().find((t) => t.mid === consumer.mid);
      if (!transceiver) continue;
      if (kind === 'webcamVideo' && this.#layer !== 'auto') {
        await this.#signalling.request('setPreferredLayer', {
          consumerId: consumer.consumerId,
          layer: this.#layer,
        });
      }
      await this.#signalling.request('resume', { consumerId: consumer.consumerId });
      this.#emit('trackAdded', { kind, track: transceiver.receiver.track });
    }
    this.#consumers = next;
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #emit<K extends keyof ViewerEvents>(event: K, value: ViewerEvents[K]): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) {
      (listener as (value: ViewerEvents[K]) => void)(value);
    }
  }
}
