import { SPEAKER_KIND, SPEAKER_RETURN_MS, type Speaker, type SpeakingView } from '@sea/contract/live';
import type { IceServer } from '@sea/contract/live-ticket';
import { Emitter } from '../../lib/emitter.ts';
import { iceGathered } from './ice-gathering.ts';
import type { SignallingLike } from './signalling-client.ts';
import { LIVE_TEXTS } from './texts.ts';

/**
 * Where the student stands: `idle` (not invited), `invited` (the teacher asked: accept or decline),
 * `starting` (accepted: the microphone and the connection are being set up), `speaking` (the class hears them).
 */
export type SpeakingPhase = 'idle' | 'invited' | 'starting' | 'speaking';

/** Events of a {@link StudentSpeaker}. */
export type StudentSpeakerEvents = {
  /** The phase changed. */
  phaseChanged: SpeakingPhase;
  /** Who is invited or speaking in the room changed (this student included). */
  speakersChanged: Speaker[];
  /** Speaking could not start: a Korean message (the microphone refused, or the media service). */
  failed: string;
};

export type StudentSpeakerOptions = {
  signalling: SignallingLike;
  getUserMedia: (constraints: MediaStreamConstraints) => Promise<MediaStream>;
  /** Tests inject a factory; the browser's RTCPeerConnection otherwise. */
  createPeerConnection?: (config: RTCConfiguration) => RTCPeerConnection;
};

/** What the browser's refusal of the microphone means to the student. */
export function microphoneFailure(error: unknown): string {
  const name = (error as { name?: unknown } | null)?.name;
  if (name === 'NotAllowedError' || name === 'SecurityError') return LIVE_TEXTS.speaking.micDenied;
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return LIVE_TEXTS.speaking.micMissing;
  return LIVE_TEXTS.speaking.micFailed;
}

/**
 * A student's speaking, without any UI framework: follows the room's `speakerChanged`, and when the teacher
 * invites this student, accepts (asks the browser for the microphone, then publishes it as `speakerAudio` on a
 * connection of its own) or declines. Speaking ends by {@link end}, by the teacher (the media service closes
 * the stream and says so), or when the signalling connection is lost; a student who was speaking then is
 * invited again on return (the media service keeps the place, or, when it died and came back, the teacher's
 * client names them to the new room) and accepts by itself, so the turn comes back. Only an invitation is
 * accepted by itself: a turn is never claimed.
 * {@link close} is idempotent.
 */
export class StudentSpeaker {
  readonly #signalling: SignallingLike;
  readonly #getUserMedia: StudentSpeakerOptions['getUserMedia'];
  readonly #createPeerConnection: (config: RTCConfiguration) => RTCPeerConnection;
  readonly #events = new Emitter<StudentSpeakerEvents>();
  readonly #unsubscribes: (() => void)[];
  #phase: SpeakingPhase = 'idle';
  #pc: RTCPeerConnection | null = null;
  #track: MediaStreamTrack | null = null;
  /** Until when (Date.now()) an invitation is accepted by itself: the student was speaking when cut off. */
  #returnUntil = 0;
  #closed = false;

  constructor(options: StudentSpeakerOptions) {
    this.#signalling = options.signalling;
    this.#getUserMedia = options.getUserMedia;
    this.#createPeerConnection = options.createPeerConnection ?? ((config) => new RTCPeerConnection(config));
    this.#unsubscribes = [
      this.#signalling.on('speakerChanged', (view) => this.#follow(view)),
      this.#signalling.on('reconnected', () => {
        // The media service keeps a speaker's place for their return and invites them again: take it back.
        if (this.#phase === 'speaking' || this.#phase === 'starting')
          this.#returnUntil = Date.now() + SPEAKER_RETURN_MS;
        this.#stop();
      }),
    ];
  }

  get phase(): SpeakingPhase {
    return this.#phase;
  }

  on<K extends keyof StudentSpeakerEvents>(
    event: K,
    listener: (value: StudentSpeakerEvents[K]) => void,
  ): () => void {
    return this.#events.on(event, listener);
  }

  /**
   * Accepts the invitation: the microphone first (a refusal declines, with `failed`), then the media service.
   * Resolves once speaking (or once it could not start: see `failed`).
   */
  async accept(): Promise<void> {
    if (this.#phase !== 'invited' || this.#closed) return;
    this.#setPhase('starting');
    let track: MediaStreamTrack | undefined;
    try {
      const stream = await this.#getUserMedia({ audio: true, video: false });
      track = stream.getAudioTracks()[0];
      stream.getVideoTracks().forEach((t) => t.stop());
      if (!track) throw new DOMException('no audio track', 'NotFoundError');
    } catch (error) {
      if (!this.#starting()) return; // ended meanwhile: nothing to report
      this.#events.emit('failed', microphoneFailure(error));
      await this.#endOnServer();
      this.#stop();
      return;
    }
    if (!this.#starting()) {
      track.stop();
      return;
    }
    this.#track = track;
    try {
      await this.#publish(track);
      if (this.#starting()) this.#setPhase('speaking');
    } catch (error) {
      if (!this.#starting()) return; // the teacher ended it meanwhile: the refusal is expected
      const message = (error as { message?: unknown }).message;
      this.#events.emit(
        'failed',
        typeof message === 'string' && message ? message : LIVE_TEXTS.speaking.failed,
      );
      await this.#endOnServer();
      this.#stop();
    }
  }

  /** Declines the invitation (the teacher sees it end). */
  decline(): Promise<void> {
    return this.end();
  }

  /** Stops speaking (or declines): the microphone is released at once. */
  async end(): Promise<void> {
    this.#stop();
    await this.#endOnServer();
  }

  /** Releases the microphone and the connection. Idempotent. */
  close(): void {
    if (this.#closed) return;
    this.#stop();
    this.#closed = true;
    this.#unsubscribes.forEach((unsubscribe) => unsubscribe());
    this.#events.clear();
  }

  async #publish(track: MediaStreamTrack): Promise<void> {
    const signalling = this.#signalling;
    await signalling.request('acceptSpeak', {});
    const capabilities = await signalling.request('getRouterRtpCapabilities', {});
    const { transportId } = await signalling.request('createProducerTransport', {});
    if (!this.#starting()) return;
    const pc = this.#createPeerConnection({ iceServers: capabilities.iceServers as IceServer[] });
    this.#pc = pc;
    const transceiver = pc.addTransceiver(track, { direction: 'sendonly' });
    await pc.setLocalDescription(await pc.createOffer());
    await iceGathered(pc);
    const { sdp } = await signalling.request('connectProducerTransport', {
      transportId,
      sdp: pc.localDescription?.sdp ?? '',
    });
    await pc.setRemoteDescription({ type: 'answer', sdp });
    const mid = transceiver.mid;
    if (mid === null) throw new Error(LIVE_TEXTS.speaking.failed);
    await signalling.request('produce', { transportId, producerKind: SPEAKER_KIND, mid });
  }

  #follow(view: SpeakingView): void {
    this.#events.emit('speakersChanged', view.speakers);
    if (view.self === 'none') this.#stop();
    else if (view.self === 'invited' && this.#phase === 'idle') {
      this.#setPhase('invited');
      if (Date.now() < this.#returnUntil) {
        this.#returnUntil = 0;
        void this.accept();
      }
    }
  }

  /** Nothing of speaking is left here: the microphone released, the connection closed. */
  #stop(): void {
    this.#track?.stop();
    this.#track = null;
    this.#pc?.close();
    this.#pc = null;
    this.#setPhase('idle');
  }

  async #endOnServer(): Promise<void> {
    // Declining after a failure, or ending: the server may have ended it already (then there is nothing to end),
    // and a lost connection ends it there anyway. The outcome the student wants holds either way.
    await this.#signalling.request('endSpeaking', {}).catch(() => undefined);
  }

  /** Still setting up (not ended meanwhile): read fresh after every await. */
  #starting(): boolean {
    return this.#phase === 'starting';
  }

  #setPhase(phase: SpeakingPhase): void {
    if (this.#phase === phase || this.#closed) return;
    this.#phase = phase;
    this.#events.emit('phaseChanged', phase);
  }
}
