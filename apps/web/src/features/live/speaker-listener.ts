import type { ConsumerInfo, Speaker, SpeakingView } from '@sea/contract/live';
import type { IceServer } from '@sea/contract/live-ticket';
import { Emitter } from '../../lib/emitter.ts';
import { LiveRequestError, type SignallingLike } from './signalling-client.ts';

/** Events of a {@link SpeakerListener}. */
export type SpeakerListenerEvents = {
  /** Who is invited or speaking changed. */
  speakersChanged: Speaker[];
  /** A speaker's microphone can be played (one audio element per speaker). */
  trackAdded: { producerId: string; track: MediaStreamTrack };
  /** That speaker's microphone ended. */
  trackRemoved: { producerId: string };
};

export type SpeakerListenerOptions = {
  signalling: SignallingLike;
  /** Tests inject a factory; the browser's RTCPeerConnection otherwise. */
  createPeerConnection?: (config: RTCConfiguration) => RTCPeerConnection;
};

/**
 * The teacher's side of speaking, without any UI framework: invites and ends, follows `speakerChanged`, and
 * receives the speakers' microphones on a receiving connection of its own, opened when the first speaker
 * publishes and renegotiated as speakers come and go (one renegotiation at a time). A signalling reconnection
 * forgets it (the server did too). {@link close} is idempotent.
 */
export class SpeakerListener {
  readonly #signalling: SignallingLike;
  readonly #createPeerConnection: (config: RTCConfiguration) => RTCPeerConnection;
  readonly #events = new Emitter<SpeakerListenerEvents>();
  readonly #unsubscribes: (() => void)[];
  #speakers: Speaker[] = [];
  #pc: RTCPeerConnection | null = null;
  #transportId: string | null = null;
  #consumers = new Map<string, ConsumerInfo>();
  #queue: Promise<unknown> = Promise.resolve();
  #syncPending = false;
  #closed = false;

  constructor(options: SpeakerListenerOptions) {
    this.#signalling = options.signalling;
    this.#createPeerConnection = options.createPeerConnection ?? ((config) => new RTCPeerConnection(config));
    this.#unsubscribes = [
      this.#signalling.on('speakerChanged', (view) => this.#follow(view)),
      this.#signalling.on('reconnected', () => this.#reset()),
    ];
  }

  on<K extends keyof SpeakerListenerEvents>(
    event: K,
    listener: (value: SpeakerListenerEvents[K]) => void,
  ): () => void {
    return this.#events.on(event, listener);
  }

  /** Invites a student (by user id) to speak; rejects with the media service's refusal (Korean). */
  async invite(userId: string): Promise<void> {
    this.#follow(await this.#signalling.request('inviteToSpeak', { userId }));
  }

  /** Ends one student's speaking (or invitation), or everybody's without a user id. */
  async end(userId?: string): Promise<void> {
    this.#follow(await this.#signalling.request('endSpeaking', userId === undefined ? {} : { userId }));
  }

  /** Closes the receiving connection. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#unsubscribes.forEach((unsubscribe) => unsubscribe());
    this.#pc?.close();
    this.#pc = null;
    this.#events.clear();
  }

  #follow(view: SpeakingView): void {
    if (this.#closed) return;
    this.#speakers = view.speakers;
    this.#events.emit('speakersChanged', view.speakers);
    this.#scheduleSync();
  }

  #reset(): void {
    this.#pc?.close();
    this.#pc = null;
    this.#transportId = null;
    for (const producerId of this.#consumers.keys()) this.#events.emit('trackRemoved', { producerId });
    this.#consumers = new Map();
  }

  /** Several changes in a row cost one renegotiation. */
  #scheduleSync(): void {
    if (this.#syncPending || this.#closed) return;
    this.#syncPending = true;
    const run = this.#queue.then(async () => {
      this.#syncPending = false;
      try {
        await this.#sync();
      } catch (error) {
        // The teacher's room was started again on this connection (the publisher recovering its media): the
        // server closed the old receiving transport with the old peer. Start over on a new one, once.
        if (!(error instanceof LiveRequestError && error.code === 'notFound')) throw error;
        this.#reset();
        await this.#sync();
      }
    });
    this.#queue = run.catch((error: unknown) => console.warn('live: could not receive the speakers', error));
  }

  async #sync(): Promise<void> {
    const wanted = new Set(this.#speakers.flatMap((speaker) => speaker.producerId ?? []));
    const known = [...this.#consumers.keys()];
    const current = known.length === wanted.size && known.every((id) => wanted.has(id));
    if (this.#closed || current) return;
    if (!this.#pc || !this.#transportId) {
      if (wanted.size === 0) return; // nobody to hear yet: no connection
      // Neither needs the other: asked together, one round trip less before the first voice.
      const [capabilities, { transportId }] = await Promise.all([
        this.#signalling.request('getRouterRtpCapabilities', {}),
        this.#signalling.request('createConsumerTransport', {}),
      ]);
      if (this.#closed) return;
      this.#pc = this.#createPeerConnection({ iceServers: capabilities.iceServers as IceServer[] });
      this.#transportId = transportId;
    }
    const pc = this.#pc;
    const transportId = this.#transportId;
    const offer = await this.#signalling.request('consume', { transportId });
    const next = new Map(offer.consumers.map((consumer) => [consumer.producerId, consumer]));
    // The new voices are started at once, beside the answer, as the student's viewer does: a consumer resumed
    // before the connection is up starts when it is.
    const starting = new Map<string, Promise<boolean>>();
    for (const [producerId, consumer] of next) {
      if (this.#consumers.has(producerId)) continue;
      const started = this.#start(consumer);
      // Awaited below, unless the negotiation fails first.
      started.catch(() => undefined);
      starting.set(producerId, started);
    }
    await pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    await pc.setLocalDescription(await pc.createAnswer());
    // No wait for ICE gathering: the SFU is ICE-lite towards browsers and needs none of their candidates
    // (student-viewer.ts).
    await this.#signalling.request('connectConsumerTransport', {
      transportId,
      sdp: pc.localDescription?.sdp ?? '',
    });
    for (const producerId of this.#consumers.keys()) {
      if (!next.has(producerId)) this.#events.emit('trackRemoved', { producerId });
    }
    for (const [producerId, started] of starting) {
      // The speaker stopped between `consume` and its start: the next `speakerChanged` negotiates again.
      if (!(await started)) {
        next.delete(producerId);
        continue;
      }
      const transceiver = pc.getTransceivers().find((t) => t.mid === next.get(producerId)?.mid);
      if (transceiver) this.#events.emit('trackAdded', { producerId, track: transceiver.receiver.track });
    }
    this.#consumers = next;
  }

  /** Resumes a new consumer; false when its speaker has stopped by now. */
  async #start(consumer: ConsumerInfo): Promise<boolean> {
    try {
      await this.#signalling.request('resume', { consumerId: consumer.consumerId });
      return true;
    } catch (error) {
      if (error instanceof LiveRequestError && error.code === 'notFound') return false;
      throw error;
    }
  }
}
