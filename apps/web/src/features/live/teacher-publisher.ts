import type { LayerEncoding, StreamKind } from '@sea/contract/live';
import type { IceServer } from '@sea/contract/live-ticket';
import { iceGathered } from './ice-gathering.ts';
import type { SignallingLike } from './signalling-client.ts';

/** Where one of the teacher's four streams stands (the UI shows 송출 중 / 송출됨 / 실패). */
export type StreamState = 'off' | 'publishing' | 'published' | 'failed';

/** Events of a {@link TeacherPublisher}. */
export type PublisherEvents = {
  /** A stream's state changed. */
  streamStateChanged: { kind: StreamKind; state: StreamState };
  /** The number of students watching changed. */
  viewerCount: number;
  /** The media connection to the server failed; the publisher starts again on a fresh one by itself. */
  connectionFailed: undefined;
};

export type PublisherOptions = {
  /** The signalling connection (its requests and events); tests inject a fake. */
  signalling: SignallingLike;
  /** Tests may inject a factory; the browser's RTCPeerConnection otherwise. */
  createPeerConnection?: (config: RTCConfiguration) => RTCPeerConnection;
};

type Stream = { track: MediaStreamTrack; transceiver: RTCRtpTransceiver | null; state: StreamState };

/**
 * The teacher's side of a live room, without any UI framework: opens the room, keeps one publishing
 * connection, and publishes or stops each of the four streams on its own (webcam video with the three simulcast
 * layers). Every change renegotiates the same connection. After a signalling reconnection, or when the media
 * connection fails, it starts the room again and republishes what was on. {@link close} is idempotent.
 */
export class TeacherPublisher {
  readonly #signalling: SignallingLike;
  readonly #createPeerConnection: (config: RTCConfiguration) => RTCPeerConnection;
  readonly #listeners = new Map<keyof PublisherEvents, Set<(value: never) => void>>();
  readonly #streams = new Map<StreamKind, Stream>();
  /** m-lines of streams switched off, by kind, reused when the kind is published again. */
  readonly #idle = new Map<StreamKind, RTCRtpTransceiver>();
  readonly #unsubscribes: (() => void)[] = [];
  #pc: RTCPeerConnection | null = null;
  #transportId: string | null = null;
  #layers: LayerEncoding[] = [];
  #queue: Promise<unknown> = Promise.resolve();
  #closed = false;

  constructor(options: PublisherOptions) {
    this.#signalling = options.signalling;
    this.#createPeerConnection = options.createPeerConnection ?? ((config) => new RTCPeerConnection(config));
    this.#unsubscribes.push(
      this.#signalling.on('viewerCount', ({ count }) => this.#emit('viewerCount', count)),
      this.#signalling.on('reconnected', () => void this.#serial(() => this.#restart())),
    );
  }

  /** Opens the room (the class becomes live) and the publishing connection. */
  start(): Promise<void> {
    return this.#serial(() => this.#restart());
  }

  /** Publishes `track` as `kind` (replacing what was published as that kind). */
  publish(kind: StreamKind, track: MediaStreamTrack): Promise<void> {
    return this.#serial(async () => {
      await this.#stop(kind);
      const stream: Stream = { track, transceiver: null, state: 'off' };
      this.#streams.set(kind, stream);
      await this.#send(kind, stream);
    });
  }

  /** Stops publishing `kind` (students see it disappear). The track itself is the caller's to stop. */
  unpublish(kind: StreamKind): Promise<void> {
    return this.#serial(async () => {
      await this.#stop(kind);
      this.#streams.delete(kind);
      this.#setStreamState(kind, 'off');
    });
  }

  /** The publishing connection (for statistics). */
  get peerConnection(): RTCPeerConnection | null {
    return this.#pc;
  }

  /** The state of each stream. */
  streamState(kind: StreamKind): StreamState {
    return this.#streams.get(kind)?.state ?? 'off';
  }

  /** Listens to an event; returns the function that stops listening. */
  on<K extends keyof PublisherEvents>(event: K, listener: (value: PublisherEvents[K]) => void): () => void {
    const set = this.#listeners.get(event) ?? new Set();
    this.#listeners.set(event, set);
    set.add(listener as (value: never) => void);
    return () => set.delete(listener as (value: never) => void);
  }

  /** Closes the publishing connection (the signalling client is the caller's). Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribes.forEach((unsubscribe) => unsubscribe());
    this.#pc?.close();
    this.#pc = null;
    this.#listeners.clear();
  }

  async #restart(): Promise<void> {
    if (this.#closed) return;
    await this.#signalling.request('startRoom', {});
    const capabilities = await this.#signalling.request('getRouterRtpCapabilities', {});
    this.#layers = capabilities.layers;
    this.#pc?.close();
    this.#idle.clear();
    const { transportId } = await this.#signalling.request('createProducerTransport', {});
    this.#transportId = transportId;
    const pc = this.#createPeerConnection({ iceServers: capabilities.iceServers as IceServer[] });
    this.#pc = pc;
    pc.addEventListener('connectionstatechange', () => {
      if (pc !== this.#pc || pc.connectionState !== 'failed' || this.#closed) return;
      // The media path broke: start again on a fresh connection and republish what was on.
      this.#emit('connectionFailed', undefined);
      void this.#serial(() => this.#restart()).catch((error: unknown) =>
        console.warn('live: restart failed', error),
      );
    });
    for (const [kind, stream] of this.#streams) {
      stream.transceiver = null;
      await this.#send(kind, stream);
    }
  }

  async #send(kind: StreamKind, stream: Stream): Promise<void> {
    const pc = this.#pc;
    const transportId = this.#transportId;
    if (!pc || !transportId) throw new Error('start() first');
    this.#setStreamState(kind, 'publishing');
    try {
      const simulcast = kind === 'webcamVideo';
      // A kind published before keeps its m-line (and its simulcast encodings): the track is swapped back in
      // and no renegotiation is needed.
      const idle = this.#idle.get(kind);
      if (idle) {
        this.#idle.delete(kind);
        await idle.sender.replaceTrack(stream.track);
        stream.transceiver = idle;
      } else {
        stream.transceiver = pc.addTransceiver(stream.track, {
          direction: 'sendonly',
          sendEncodings: simulcast ? this.#layers.map((layer) => ({ ...layer })) : undefined,
        });
        await this.#negotiate(pc, transportId);
      }
      const mid = stream.transceiver.mid;
      if (mid === null) throw new Error('no mid after negotiation');
      await this.#signalling.request('produce', { transportId, producerKind: kind, mid });
      stream.state = 'published';
      this.#setStreamState(kind, 'published');
    } catch (error) {
      stream.state = 'failed';
      this.#setStreamState(kind, 'failed');
      throw error;
    }
  }

  async #stop(kind: StreamKind): Promise<void> {
    const stream = this.#streams.get(kind);
    if (!stream) return;
    await this.#signalling.request('closeProducer', { producerKind: kind }).catch(() => undefined);
    if (stream.transceiver) {
      // The m-line is kept and only goes silent, for the next time: stopping it or making it inactive would
      // renegotiate, grow the SDP, and (werift) can take the shared transport down or renominate ICE.
      await stream.transceiver.sender.replaceTrack(null);
      this.#idle.set(kind, stream.transceiver);
      stream.transceiver = null;
    }
  }

  async #negotiate(pc: RTCPeerConnection, transportId: string): Promise<void> {
    await pc.setLocalDescription(await pc.createOffer());
    await iceGathered(pc);
    const offer = pc.localDescription?.sdp ?? '';
    const { sdp } = await this.#signalling.request('connectProducerTransport', { transportId, sdp: offer });
    await pc.setRemoteDescription({ type: 'answer', sdp });
  }

  #serial<T>(task: () => Promise<T>): Promise<T> {
    const run = this.#queue.then(task);
    this.#queue = run.catch(() => undefined);
    return run;
  }

  #setStreamState(kind: StreamKind, state: StreamState): void {
    const stream = this.#streams.get(kind);
    if (stream) stream.state = state;
    this.#emit('streamStateChanged', { kind, state });
  }

  #emit<K extends keyof PublisherEvents>(event: K, value: PublisherEvents[K]): void {
    for (const listener of [...(this.#listeners.get(event) ?? [])]) {
      (listener as (value: PublisherEvents[K]) => void)(value);
    }
  }
}
