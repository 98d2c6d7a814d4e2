import type { LayerEncoding, Participant, RecordingState, StreamKind } from '@sea/contract/live';
import type { IceServer } from '@sea/contract/live-ticket';
import { iceGathered } from './ice-gathering.ts';
import { LiveClient, type LiveClientEvents, type LiveClientOptions } from './live-client.ts';
import { LiveRequestError } from './signalling-client.ts';

/** Where one of the teacher's four streams stands (the UI shows 송출 중 / 송출됨 / 실패). */
export type StreamState = 'off' | 'publishing' | 'published' | 'failed';

/**
 * Events of a {@link TeacherPublisher}. `mediaStateChanged` says `failed` when the room could not be started
 * again after a connection loss (the streams are then marked failed too).
 */
export type PublisherEvents = LiveClientEvents & {
  /** A stream's state changed. */
  streamStateChanged: { kind: StreamKind; state: StreamState };
  /** The number of students watching changed. */
  viewerCount: number;
  /** The students in the room now (here and on edge nodes), in the order they came. */
  participants: Participant[];
  /** Whether the session is recorded and whether the recording is paused (after start, and on a change). */
  recordingState: RecordingState;
};

export type PublisherOptions = LiveClientOptions & {
  /** Record the session (default true); sent with every `startRoom` (a room already open keeps its choice). */
  record?: boolean;
};

type Stream = { track: MediaStreamTrack; transceiver: RTCRtpTransceiver | null; state: StreamState };

/** Refusals that mean this connection may not teach the room any more: no point trying again. */
const FINAL_CODES = new Set(['forbidden', 'unauthorized']);

/**
 * The teacher's side of a live room, without any UI framework: opens the room, keeps one publishing
 * connection, and publishes or stops each of the four streams on its own (webcam video with the three simulcast
 * layers). Every change renegotiates the same connection. After a signalling reconnection, or when the media
 * connection fails, it starts the room again and republishes what was on (see {@link LiveClient}).
 */
export class TeacherPublisher extends LiveClient<PublisherEvents> {
  readonly #streams = new Map<StreamKind, Stream>();
  /** m-lines of streams switched off, by kind, reused when the kind is published again. */
  readonly #idle = new Map<StreamKind, RTCRtpTransceiver>();
  #transportId: string | null = null;
  #layers: LayerEncoding[] = [];
  readonly #record: boolean;
  /**
   * The students last seen invited or speaking: named again in `startRoom` when the room is started again, so
   * that a room the media service opens anew (it died and came back) gives them their turn back.
   */
  #speakers: string[] = [];

  constructor(options: PublisherOptions) {
    super(options);
    this.#record = options.record ?? true;
    this.listen(
      this.signalling.on('speakerChanged', ({ speakers }) => {
        this.#speakers = speakers.map((speaker) => speaker.userId);
      }),
    );
    this.listen(this.signalling.on('viewerCount', ({ count }) => this.emit('viewerCount', count)));
    this.listen(this.signalling.on('participants', ({ students }) => this.emit('participants', students)));
    this.listen(this.signalling.on('recordingState', (state) => this.emit('recordingState', state)));
  }

  /**
   * Pauses (`false`) or resumes (`true`) the recording; resolves with the new state (also emitted as
   * `recordingState`), rejects with the media service's refusal.
   */
  setRecording(recording: boolean): Promise<RecordingState> {
    return this.signalling.request('setRecording', { recording });
  }

  /** Opens the room (the class becomes live) and the publishing connection. */
  start(): Promise<void> {
    return this.enter();
  }

  /** Publishes `track` as `kind` (replacing what was published as that kind). */
  publish(kind: StreamKind, track: MediaStreamTrack): Promise<void> {
    return this.serial(async () => {
      await this.#stop(kind);
      const stream: Stream = { track, transceiver: null, state: 'off' };
      this.#streams.set(kind, stream);
      await this.#send(kind, stream);
    });
  }

  /** Stops publishing `kind` (students see it disappear). The track itself is the caller's to stop. */
  unpublish(kind: StreamKind): Promise<void> {
    return this.serial(async () => {
      await this.#stop(kind);
      this.#streams.delete(kind);
      this.#setStreamState(kind, 'off');
    });
  }

  /** The state of each stream. */
  streamState(kind: StreamKind): StreamState {
    return this.#streams.get(kind)?.state ?? 'off';
  }

  protected override isFinal(error: unknown): boolean {
    return error instanceof LiveRequestError && FINAL_CODES.has(error.code);
  }

  protected override onGiveUp(): void {
    for (const kind of this.#streams.keys()) this.#setStreamState(kind, 'failed');
  }

  protected override async connect(): Promise<void> {
    if (this.closed) return;
    const speakers = this.#speakers;
    await this.signalling.request(
      'startRoom',
      speakers.length ? { record: this.#record, speakers } : { record: this.#record },
    );
    const capabilities = await this.signalling.request('getRouterRtpCapabilities', {});
    this.#layers = capabilities.layers;
    this.#idle.clear();
    const { transportId } = await this.signalling.request('createProducerTransport', {});
    this.#transportId = transportId;
    this.openPeerConnection({ iceServers: capabilities.iceServers as IceServer[] });
    for (const [kind, stream] of this.#streams) {
      stream.transceiver = null;
      await this.#send(kind, stream);
    }
  }

  async #send(kind: StreamKind, stream: Stream): Promise<void> {
    const pc = this.peerConnection;
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
      await this.signalling.request('produce', { transportId, producerKind: kind, mid });
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
    await this.signalling.request('closeProducer', { producerKind: kind }).catch(() => undefined);
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
    const { sdp } = await this.signalling.request('connectProducerTransport', { transportId, sdp: offer });
    await pc.setRemoteDescription({ type: 'answer', sdp });
  }

  #setStreamState(kind: StreamKind, state: StreamState): void {
    const stream = this.#streams.get(kind);
    if (stream) stream.state = state;
    this.emit('streamStateChanged', { kind, state });
  }
}
