import { describe, expect, it } from 'vitest';
import type { SpeakingView } from '@sea/contract/live';
import { LiveRequestError } from './signalling-client.ts';
import { microphoneFailure, StudentSpeaker, type SpeakingPhase } from './student-speaker.ts';
import { asTrack, FakeMediaStream, FakeTrack } from './test/fake-live-services.ts';
import { fakeSignalling } from './test/fake-signalling.ts';
import { LIVE_TEXTS } from './texts.ts';

/** A publishing peer connection fake: one transceiver per added track, mid = its index. */
function fakePublishingConnection() {
  const pc = {
    iceGatheringState: 'complete',
    localDescription: { type: 'offer', sdp: 'offer' },
    added: [] as MediaStreamTrack[],
    remote: [] as string[],
    closed: false,
    addTransceiver: (track: MediaStreamTrack) => {
      pc.added.push(track);
      return { mid: String(pc.added.length - 1) };
    },
    getTransceivers: () => pc.added,
    createOffer: async () => ({ type: 'offer', sdp: 'offer' }),
    setLocalDescription: async () => undefined,
    setRemoteDescription: async ({ sdp }: { sdp: string }) => void pc.remote.push(sdp),
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    close: () => void (pc.closed = true),
  };
  return pc;
}

const view = (self: SpeakingView['self'], producerId: string | null = null): SpeakingView => ({
  speakers: self === 'none' ? [] : [{ userId: 's1', nickname: '학생', state: self, producerId }],
  self,
});

function setup(getUserMedia: (constraints: MediaStreamConstraints) => Promise<MediaStream>) {
  const fake = fakeSignalling({
    acceptSpeak: () => view('speaking'),
    getRouterRtpCapabilities: () => ({ codecs: [], iceServers: [], layers: [] }),
    createProducerTransport: () => ({ transportId: 'pt' }),
    connectProducerTransport: () => ({ sdp: 'answer' }),
    produce: () => ({ producerId: 'mic-1' }),
    endSpeaking: () => view('none'),
  });
  const pc = fakePublishingConnection();
  const speaker = new StudentSpeaker({
    signalling: fake.signalling,
    getUserMedia,
    createPeerConnection: () => pc as unknown as RTCPeerConnection,
  });
  const phases: SpeakingPhase[] = [];
  const failures: string[] = [];
  speaker.on('phaseChanged', (phase) => phases.push(phase));
  speaker.on('failed', (message) => failures.push(message));
  return { ...fake, pc, speaker, phases, failures };
}

describe('StudentSpeaker', () => {
  it('publishes nothing until invited; on accept asks for the microphone, then publishes it as speakerAudio', async () => {
    const microphone = new FakeTrack('audio');
    const asked: MediaStreamConstraints[] = [];
    const { speaker, emit, calls, names, pc, phases } = setup(async (constraints) => {
      asked.push(constraints);
      return new FakeMediaStream([microphone]) as unknown as MediaStream;
    });
    await speaker.accept(); // not invited: nothing happens
    expect(names()).toEqual([]);
    expect(asked).toEqual([]);

    emit('speakerChanged', view('invited'));
    expect(speaker.phase).toBe('invited');
    await speaker.accept();
    expect(asked).toEqual([{ audio: true, video: false }]);
    expect(names()).toEqual([
      'acceptSpeak',
      'getRouterRtpCapabilities',
      'createProducerTransport',
      'connectProducerTransport',
      'produce',
    ]);
    expect(calls.at(-1)?.payload).toEqual({ transportId: 'pt', producerKind: 'speakerAudio', mid: '0' });
    expect(pc.added).toEqual([asTrack(microphone)]);
    expect(pc.remote).toEqual(['answer']);
    expect(phases).toEqual(['invited', 'starting', 'speaking']);

    // The teacher ends it: the microphone is released and the connection closed.
    emit('speakerChanged', view('none'));
    expect(speaker.phase).toBe('idle');
    expect(microphone.stopped).toBe(true);
    expect(pc.closed).toBe(true);
  });

  it('a refused microphone says why in Korean and declines, so the teacher sees the seat free', async () => {
    const { speaker, emit, names, failures } = setup(async () => {
      throw new DOMException('Permission denied', 'NotAllowedError');
    });
    emit('speakerChanged', view('invited'));
    await speaker.accept();
    expect(failures).toEqual([LIVE_TEXTS.speaking.micDenied]);
    expect(names()).toEqual(['endSpeaking']);
    expect(speaker.phase).toBe('idle');
  });

  it('names the missing microphone apart from a refusal', () => {
    expect(microphoneFailure(new DOMException('x', 'NotFoundError'))).toBe(LIVE_TEXTS.speaking.micMissing);
    expect(microphoneFailure(new DOMException('x', 'NotAllowedError'))).toBe(LIVE_TEXTS.speaking.micDenied);
    expect(microphoneFailure(new Error('x'))).toBe(LIVE_TEXTS.speaking.micFailed);
  });

  it('a refusal of the media service is shown in its words and the microphone is released', async () => {
    const microphone = new FakeTrack('audio');
    const { speaker, emit, answers, failures } = setup(
      async () => new FakeMediaStream([microphone]) as unknown as MediaStream,
    );
    answers.acceptSpeak = () => {
      throw new LiveRequestError('forbidden', '강사의 발언 요청을 받지 않았어요.');
    };
    emit('speakerChanged', view('invited'));
    await speaker.accept();
    expect(failures).toEqual(['강사의 발언 요청을 받지 않았어요.']);
    expect(microphone.stopped).toBe(true);
    expect(speaker.phase).toBe('idle');
  });

  it('ends by itself: endSpeaking, microphone released; declining sends endSpeaking too', async () => {
    const microphone = new FakeTrack('audio');
    const { speaker, emit, names, pc } = setup(
      async () => new FakeMediaStream([microphone]) as unknown as MediaStream,
    );
    emit('speakerChanged', view('invited'));
    await speaker.decline();
    expect(names()).toEqual(['endSpeaking']);
    emit('speakerChanged', view('invited'));
    await speaker.accept();
    await speaker.end();
    expect(names().at(-1)).toBe('endSpeaking');
    expect(microphone.stopped).toBe(true);
    expect(pc.closed).toBe(true);
    expect(speaker.phase).toBe('idle');
  });

  it('a lost signalling connection ends speaking here (the server forgot it)', async () => {
    const microphone = new FakeTrack('audio');
    const { speaker, emit } = setup(async () => new FakeMediaStream([microphone]) as unknown as MediaStream);
    emit('speakerChanged', view('invited'));
    await speaker.accept();
    expect(speaker.phase).toBe('speaking');
    emit('reconnected', undefined);
    expect(speaker.phase).toBe('idle');
    expect(microphone.stopped).toBe(true);
  });

  it('speaking when cut off: invited again on return, it accepts by itself and speaks again', async () => {
    const { speaker, emit, names, phases } = setup(
      async () => new FakeMediaStream([new FakeTrack('audio')]) as unknown as MediaStream,
    );
    emit('speakerChanged', view('invited'));
    await speaker.accept();
    emit('reconnected', undefined);
    emit('speakerChanged', view('none'));
    // The media service kept the place: the rejoined student is invited again.
    emit('speakerChanged', view('invited'));
    await expect.poll(() => speaker.phase).toBe('speaking');
    expect(names().filter((name) => name === 'acceptSpeak')).toHaveLength(2);
    expect(phases).toEqual(['invited', 'starting', 'speaking', 'idle', 'invited', 'starting', 'speaking']);
    // A later invitation (after the teacher ended it) waits for the student's answer again.
    emit('speakerChanged', view('none'));
    emit('speakerChanged', view('invited'));
    expect(speaker.phase).toBe('invited');
  });

  it("only invited when cut off: the invitation comes back, the answer stays the student's", () => {
    const { speaker, emit } = setup(async () => new FakeMediaStream([]) as unknown as MediaStream);
    emit('speakerChanged', view('invited'));
    emit('reconnected', undefined);
    emit('speakerChanged', view('invited'));
    expect(speaker.phase).toBe('invited');
  });
});
