import {
  SPEAKER_KIND,
  type ConsumerInfo,
  type PreferredLayer,
  type RecordingState,
  type StreamKind,
} from '@sea/contract/live';
import type { IceServer } from '@sea/contract/live-ticket';
import { DATA_SAVING_LAYER } from './data-saving.ts';
import { LiveClient, type LiveClientEvents, type LiveClientOptions } from './live-client.ts';
import { LiveRequestError } from './signalling-client.ts';

/** Events of a {@link StudentViewer}. */
export type ViewerEvents = LiveClientEvents & {
  /** A stream of the teacher can be played (attach `track` to a media element). */
  trackAdded: { kind: StreamKind; track: MediaStreamTrack };
  /** The teacher stopped that stream. */
  trackRemoved: { kind: StreamKind };
  /** A speaking student's microphone can be played (one per speaker, never the student's own). */
  speakerTrackAdded: { producerId: string; track: MediaStreamTrack };
  /** That speaker's microphone ended. */
  speakerTrackRemoved: { producerId: string };
  /** The number of students watching changed. */
  viewerCount: number;
  /** Whether the lecture is recorded and whether the recording is paused (after joining, and on a change). */
  recordingState: RecordingState;
  /** The teacher ended the class (sent once; the server disconnects next). */
  ended: undefined;
};

export type ViewerOptions = LiveClientOptions;

/**
 * Refusals that mean the class is over for this student, or has no place for them (`full`): no point trying
 * again at once. (`notFound` is not one: it names
 * a transport or stream that went away in the meantime, e.g. the teacher republished it; joining again helps.)
 */
const FINAL_CODES = new Set(['notLive', 'forbidden', 'unauthorized', 'full']);

/** Consumers are kept by the teacher's stream kind, and by producer for speakers (up to two of one kind). */
const keyOf = (consumer: ConsumerInfo): string =>
  consumer.producerKind === SPEAKER_KIND ? `${SPEAKER_KIND}:${consumer.producerId}` : consumer.producerKind;

/**
 * The student's side of a live room, without any UI framework: joins, keeps one receiving connection in step
 * with the streams the teacher publishes (renegotiating as they come and go), resumes every new stream, and
 * applies the chosen webcam quality. After a signalling reconnection, or when the media connection fails, it
 * joins again (see {@link LiveClient}); when the class ended meanwhile, it says `ended`.
 *
 * '데이터 절약 모드' ({@link setDataSaving}): the webcam at {@link DATA_SAVING_LAYER} whatever quality was chosen,
 * and, while a material is on stage ({@link setMaterialOnStage}), the screen share's video paused on the SFU, so
 * none of its packets are sent. Audio is untouched; the material and its ink come over the board's channel.
 */
export class StudentViewer extends LiveClient<ViewerEvents> {
  /** Current consumers by {@link keyOf}. */
  #consumers = new Map<string, ConsumerInfo>();
  #transportId: string | null = null;
  #layer: PreferredLayer = 'auto';
  #dataSaving = false;
  #materialOnStage = false;
  /** The layer the SFU was last asked for on the current webcam consumer. */
  #sentLayer: PreferredLayer = 'auto';
  /** Whether the current screen-share video consumer is paused on the SFU (not resumed, or paused since). */
  #screenPaused = false;
  #syncPending = false;
  #ended = false;

  constructor(options: ViewerOptions) {
    super(options);
    this.listen(
      this.signalling.on('viewerCount', ({ count }) => this.emit('viewerCount', count)),
      this.signalling.on('recordingState', (state) => this.emit('recordingState', state)),
      this.signalling.on('newProducer', () => this.#scheduleSync()),
      this.signalling.on('producerClosed', () => this.#scheduleSync()),
      this.signalling.on('teacherLeft', () => this.#end()),
    );
  }

  /** Joins the room and starts receiving what is published. Rejects with `notLive` when the class is not live. */
  join(): Promise<void> {
    return this.enter();
  }

  /**
   * Chooses the webcam quality: a fixed layer, or `auto` (follow the bandwidth). Kept for later streams too.
   * Applied after any renegotiation under way, so a webcam stream that is being set up gets it as well.
   */
  setLayer(layer: PreferredLayer): Promise<void> {
    this.#layer = layer;
    return this.serial(() => this.#apply());
  }

  /**
   * Turns '데이터 절약 모드' on or off. Off, the chosen quality comes back and the screen share is resumed (the
   * SFU asks the teacher for a keyframe at once, so the picture returns without waiting).
   */
  setDataSaving(on: boolean): Promise<void> {
    this.#dataSaving = on;
    return this.serial(() => this.#apply());
  }

  /** Whether the teacher has a material (or the whiteboard) on stage: the board's stage, not the student's page. */
  setMaterialOnStage(onStage: boolean): Promise<void> {
    this.#materialOnStage = onStage;
    return this.serial(() => this.#apply());
  }

  /** The webcam layer to ask for: the chosen one, or the smallest in data saving. */
  get #wantedLayer(): PreferredLayer {
    return this.#dataSaving ? DATA_SAVING_LAYER : this.#layer;
  }

  /** Whether the screen share's video is to be held back: data saving with a material on stage. */
  get #holdScreen(): boolean {
    return this.#dataSaving && this.#materialOnStage;
  }

  /**
   * Brings the current consumers to the wanted layer and screen-share state. Runs in turn with renegotiations
   * (`serial`), so a stream being set up gets it too, and a stale call finds nothing left to do.
   */
  async #apply(): Promise<void> {
    const webcam = this.#consumers.get('webcamVideo' satisfies StreamKind);
    const layer = this.#wantedLayer;
    if (webcam && this.#sentLayer !== layer) {
      await this.signalling.request('setPreferredLayer', { consumerId: webcam.consumerId, layer });
      this.#sentLayer = layer;
    }
    const screen = this.#consumers.get('screenShareVideo' satisfies StreamKind);
    const hold = this.#holdScreen;
    if (screen && this.#screenPaused !== hold) {
      await this.signalling.request(hold ? 'pause' : 'resume', { consumerId: screen.consumerId });
      this.#screenPaused = hold;
    }
  }

  protected override get finished(): boolean {
    return this.closed || this.#ended;
  }

  protected override isFinal(error: unknown): boolean {
    return error instanceof LiveRequestError && FINAL_CODES.has(error.code);
  }

  protected override onGiveUp(): void {
    this.#end();
  }

  protected override async connect(): Promise<void> {
    if (this.finished) return;
    // The router's capabilities need no room: asked beside the entry, one round trip less before the picture.
    const [, capabilities] = await Promise.all([
      this.signalling.request('joinRoom', {}),
      this.signalling.request('getRouterRtpCapabilities', {}),
    ]);
    const { transportId } = await this.signalling.request('createConsumerTransport', {});
    for (const consumer of this.#consumers.values()) this.#removed(consumer);
    this.#consumers = new Map();
    this.#transportId = transportId;
    this.openPeerConnection({ iceServers: capabilities.iceServers as IceServer[] });
    await this.#sync();
  }

  /** The room is over: no more renegotiation (the server is about to disconnect). Said once. */
  #end(): void {
    if (this.#ended || this.closed) return;
    this.#ended = true;
    this.emit('ended', undefined);
  }

  /** Several producer events in a row cost one renegotiation. */
  #scheduleSync(): void {
    if (this.#syncPending || this.finished) return;
    this.#syncPending = true;
    void this.serial(async () => {
      this.#syncPending = false;
      await this.#sync();
    }).catch((error: unknown) => console.warn('live: could not update the streams', error));
  }

  async #sync(): Promise<void> {
    const pc = this.peerConnection;
    const transportId = this.#transportId;
    if (!pc || !transportId || this.finished) return;
    const offer = await this.signalling.request('consume', { transportId });
    const next = new Map(offer.consumers.map((c) => [keyOf(c), c]));
    // The new streams are started at once, beside the answer: a consumer resumed before the connection is up
    // starts when it is (with the keyframe the SFU holds), so the first picture waits for no request after
    // the answer's, and each track is announced as soon as its stream has started.
    const starting = new Map<string, Promise<boolean>>();
    for (const [key, consumer] of next) {
      if (this.#consumers.get(key)?.consumerId === consumer.consumerId) continue;
      const started = this.#start(consumer.producerKind, consumer);
      // Awaited below, unless the negotiation fails first.
      started.catch(() => undefined);
      starting.set(key, started);
    }
    await pc.setRemoteDescription({ type: 'offer', sdp: offer.sdp });
    for (const [key, old] of this.#consumers) {
      if (next.get(key)?.consumerId !== old.consumerId) this.#removed(old);
    }
    this.#consumers = next;
    const announced = Promise.all([...starting].map(([key, started]) => this.#announce(key, started)));
    announced.catch(() => undefined);
    await pc.setLocalDescription(await pc.createAnswer());
    // No wait for ICE gathering: the SFU is ICE-lite towards browsers, answers the browser's checks and needs
    // none of its candidates, and so gets the answer as early as it can (the wait cost about 110 ms of a first
    // frame, bench/sfu).
    await this.signalling.request('connectConsumerTransport', {
      transportId,
      sdp: pc.localDescription?.sdp ?? '',
    });
    // A stream went away between `consume` and its start (the teacher republished it): negotiate again.
    if ((await announced).some(Boolean)) this.#scheduleSync();
  }

  /**
   * Announces the track of a stream once it has started; true when the stream went away meanwhile (it is then
   * dropped from the current consumers).
   */
  async #announce(key: string, started: Promise<boolean>): Promise<boolean> {
    const consumer = this.#consumers.get(key);
    if (!consumer) return false;
    if (!(await started)) {
      this.#consumers.delete(key);
      return true;
    }
    const transceiver = this.peerConnection?.getTransceivers().find((t) => t.mid === consumer.mid);
    if (!transceiver) return false;
    const track = transceiver.receiver.track;
    if (consumer.producerKind === SPEAKER_KIND)
      this.emit('speakerTrackAdded', { producerId: consumer.producerId, track });
    else this.emit('trackAdded', { kind: consumer.producerKind, track });
    return false;
  }

  #removed(consumer: ConsumerInfo): void {
    if (consumer.producerKind === SPEAKER_KIND)
      this.emit('speakerTrackRemoved', { producerId: consumer.producerId });
    else this.emit('trackRemoved', { kind: consumer.producerKind });
  }

  /**
   * Applies the wanted quality and resumes a new consumer (a screen share held back by data saving stays paused,
   * as every new consumer starts); false when the stream is gone by now.
   */
  async #start(kind: StreamKind, consumer: ConsumerInfo): Promise<boolean> {
    try {
      if (kind === 'webcamVideo') {
        const layer = this.#wantedLayer;
        if (layer !== 'auto')
          await this.signalling.request('setPreferredLayer', { consumerId: consumer.consumerId, layer });
        this.#sentLayer = layer;
      }
      if (kind === 'screenShareVideo') {
        this.#screenPaused = this.#holdScreen;
        if (this.#screenPaused) return true;
      }
      await this.signalling.request('resume', { consumerId: consumer.consumerId });
      return true;
    } catch (error) {
      if (error instanceof LiveRequestError && error.code === 'notFound') return false;
      throw error;
    }
  }
}
