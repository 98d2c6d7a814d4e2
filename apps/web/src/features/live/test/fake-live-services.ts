import { afterEach, beforeEach, vi } from 'vitest';
import type { PreferredLayer, RecordingState, StreamKind } from '@sea/contract/live';
import type { MediaState } from '../live-client.ts';
import type {
  LiveServices,
  LiveSignalling,
  PublisherLike,
  SpeakerLike,
  SpeakerListenerLike,
  ViewerLike,
} from '../live-services.ts';
import type { SpeakerListenerEvents } from '../speaker-listener.ts';
import type { SpeakingPhase, StudentSpeakerEvents } from '../student-speaker.ts';
import type { SignallingEvents, SignallingState } from '../signalling-client.ts';
import type { PublisherEvents, StreamState } from '../teacher-publisher.ts';
import type { ViewerEvents } from '../student-viewer.ts';

/** Listeners by event name, with an `emit` for the test. */
class Emitter<Events extends Record<string, unknown>> {
  readonly listeners = new Map<keyof Events, Set<(value: never) => void>>();
  on<K extends keyof Events>(event: K, listener: (value: Events[K]) => void): () => void {
    const set = this.listeners.get(event) ?? new Set();
    this.listeners.set(event, set);
    set.add(listener as (value: never) => void);
    return () => set.delete(listener as (value: never) => void);
  }
  emit<K extends keyof Events>(event: K, value: Events[K]): void {
    for (const listener of [...(this.listeners.get(event) ?? [])]) {
      (listener as (value: Events[K]) => void)(value);
    }
  }
  count(): number {
    return [...this.listeners.values()].reduce((sum, set) => sum + set.size, 0);
  }
}

/** A signalling connection fake: state changes and close are recorded; requests are not expected. */
/** Awaits a fake's outcome as the real clients do: 'failed' (and the error again), else 'connected'. */
async function connectAs(fake: { setMediaState(state: MediaState): void }, outcome: Promise<void>) {
  try {
    await outcome;
  } catch (error) {
    fake.setMediaState('failed');
    throw error;
  }
  fake.setMediaState('connected');
}

export class FakeSignalling extends Emitter<SignallingEvents> implements LiveSignalling {
  state: SignallingState = 'connecting';
  closeCount = 0;
  request = vi.fn(async () => {
    throw new Error('the room classes are faked: no request expected');
  }) as unknown as LiveSignalling['request'];
  setState(state: SignallingState): void {
    this.state = state;
    this.emit('stateChanged', state);
  }
  close(): void {
    this.closeCount += 1;
  }
}

/** A TeacherPublisher fake: records publish/unpublish and emits stream and media states like the real one. */
export class FakePublisher extends Emitter<PublisherEvents> implements PublisherLike {
  started = 0;
  closeCount = 0;
  mediaState: MediaState = 'connecting';
  published = new Map<StreamKind, MediaStreamTrack>();
  /** What publish() ends in; a test may make it fail. */
  outcome: StreamState = 'published';
  startResult: Promise<void> = Promise.resolve();
  start = async () => {
    this.started += 1;
    await connectAs(this, this.startResult);
  };
  /** The media side changes (recovering, given up) as the real one says it. */
  setMediaState(state: MediaState): void {
    this.mediaState = state;
    this.emit('mediaStateChanged', state);
  }
  publish = async (kind: StreamKind, track: MediaStreamTrack) => {
    this.published.set(kind, track);
    this.emit('streamStateChanged', { kind, state: 'publishing' });
    await Promise.resolve();
    this.emit('streamStateChanged', { kind, state: this.outcome });
    if (this.outcome === 'failed') throw new Error('publish failed');
  };
  unpublish = async (kind: StreamKind) => {
    this.published.delete(kind);
    this.emit('streamStateChanged', { kind, state: 'off' });
  };
  /** Each setRecording call's argument; the media service's answer is the state it emits as well. */
  recordingCalls: boolean[] = [];
  /** What setRecording answers until a test says otherwise (it may make it fail). */
  recordingAnswer: (recording: boolean) => Promise<RecordingState> = async (recording) => ({
    recording: true,
    paused: !recording,
  });
  setRecording = async (recording: boolean) => {
    this.recordingCalls.push(recording);
    const state = await this.recordingAnswer(recording);
    this.emit('recordingState', state);
    return state;
  };
  close(): void {
    this.closeCount += 1;
  }
}

/** A StudentViewer fake: the test drives its events; join's outcome is set by the test. */
export class FakeViewer extends Emitter<ViewerEvents> implements ViewerLike {
  joinResult: Promise<void> = Promise.resolve();
  layers: PreferredLayer[] = [];
  closeCount = 0;
  mediaState: MediaState = 'connecting';
  join = async () => {
    await connectAs(this, this.joinResult);
  };
  /** The media side changes (recovering, given up) as the real one says it. */
  setMediaState(state: MediaState): void {
    this.mediaState = state;
    this.emit('mediaStateChanged', state);
  }
  setLayer = async (layer: PreferredLayer) => void this.layers.push(layer);
  /** Each setDataSaving and setMaterialOnStage call's argument, in order. */
  dataSaving: boolean[] = [];
  materialOnStage: boolean[] = [];
  setDataSaving = async (on: boolean) => void this.dataSaving.push(on);
  setMaterialOnStage = async (onStage: boolean) => void this.materialOnStage.push(onStage);
  close(): void {
    this.closeCount += 1;
  }
}

/** A StudentSpeaker fake: records what the student chose; the test drives the phase and the speakers. */
export class FakeSpeaker extends Emitter<StudentSpeakerEvents> implements SpeakerLike {
  phase: SpeakingPhase = 'idle';
  calls: ('accept' | 'decline' | 'end')[] = [];
  closeCount = 0;
  setPhase(phase: SpeakingPhase): void {
    this.phase = phase;
    this.emit('phaseChanged', phase);
  }
  accept = async () => void this.calls.push('accept');
  decline = async () => void this.calls.push('decline');
  end = async () => void this.calls.push('end');
  close(): void {
    this.closeCount += 1;
  }
}

/** A SpeakerListener fake: records invitations and ends; a test may make them fail with a refusal. */
export class FakeSpeakerListener extends Emitter<SpeakerListenerEvents> implements SpeakerListenerLike {
  invited: string[] = [];
  ended: (string | undefined)[] = [];
  closeCount = 0;
  refusal: Error | null = null;
  invite = async (userId: string) => {
    if (this.refusal) throw this.refusal;
    this.invited.push(userId);
  };
  end = async (userId?: string) => void this.ended.push(userId);
  close(): void {
    this.closeCount += 1;
  }
}

/** A media track fake: `kind`, `stop()` recorded, and `end()` as the browser's 'stop sharing'. */
export class FakeTrack extends EventTarget {
  static #next = 0;
  readonly id: string;
  readonly kind: 'audio' | 'video';
  stopped = false;
  constructor(kind: 'audio' | 'video') {
    super();
    this.kind = kind;
    this.id = `${kind}-${(FakeTrack.#next += 1)}`;
  }
  stop(): void {
    this.stopped = true;
  }
  end(): void {
    this.stopped = true;
    this.dispatchEvent(new Event('ended'));
  }
}

export const asTrack = (track: FakeTrack) => track as unknown as MediaStreamTrack;

/** A MediaStream stand-in for jsdom (which has none): holds its tracks. */
export class FakeMediaStream {
  readonly tracks: FakeTrack[];
  constructor(tracks: FakeTrack[] = []) {
    this.tracks = tracks;
  }
  getTracks = () => this.tracks as unknown as MediaStreamTrack[];
  getVideoTracks = () => this.tracks.filter((t) => t.kind === 'video') as unknown as MediaStreamTrack[];
  getAudioTracks = () => this.tracks.filter((t) => t.kind === 'audio') as unknown as MediaStreamTrack[];
}

/** Services for tests: one signalling, publisher and viewer fake each, and recorded device captures. */
export function fakeLiveServices() {
  const signalling = new FakeSignalling();
  const publisher = new FakePublisher();
  const viewer = new FakeViewer();
  const speaker = new FakeSpeaker();
  const listener = new FakeSpeakerListener();
  const captures: { kind: 'user' | 'display'; constraints: unknown; tracks: FakeTrack[] }[] = [];
  /**
   * `displayAudio`: whether display capture gives an audio track (false: a browser without system audio);
   * `displayError`: what display capture throws (the picker cancelled, no display capture at all).
   */
  const devices: { displayAudio: boolean; userMediaFails: boolean; displayError: Error | null } = {
    displayAudio: true,
    userMediaFails: false,
    displayError: null,
  };
  let connectResult: () => Promise<LiveSignalling> = async () => signalling;
  const services: LiveServices = {
    connect: vi.fn(() => connectResult()),
    createPublisher: vi.fn(() => publisher),
    createViewer: vi.fn(() => viewer),
    createSpeaker: vi.fn(() => speaker),
    createSpeakerListener: vi.fn(() => listener),
    getUserMedia: vi.fn(async (constraints: MediaStreamConstraints) => {
      if (devices.userMediaFails) throw new DOMException('Permission denied', 'NotAllowedError');
      const tracks = [new FakeTrack(constraints.video ? 'video' : 'audio')];
      captures.push({ kind: 'user', constraints, tracks });
      return new FakeMediaStream(tracks) as unknown as MediaStream;
    }),
    getDisplayMedia: vi.fn(async (options: DisplayMediaStreamOptions) => {
      if (devices.displayError) throw devices.displayError;
      const tracks = [new FakeTrack('video')];
      if (options.audio && devices.displayAudio) tracks.push(new FakeTrack('audio'));
      captures.push({ kind: 'display', constraints: options, tracks });
      return new FakeMediaStream(tracks) as unknown as MediaStream;
    }),
  };
  return {
    services,
    signalling,
    publisher,
    viewer,
    speaker,
    listener,
    captures,
    devices,
    failConnect: (error: unknown) => (connectResult = () => Promise.reject(error)),
  };
}

/** Stubs MediaStream and video playback for each test of the file, and restores them after it. */
export function mediaPerTest(): void {
  beforeEach(() => {
    vi.stubGlobal('MediaStream', FakeMediaStream);
    vi.spyOn(HTMLMediaElement.prototype, 'play').mockResolvedValue(undefined);
  });
  afterEach(() => {
    vi.unstubAllGlobals();
    vi.restoreAllMocks();
  });
}
