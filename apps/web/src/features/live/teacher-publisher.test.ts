import { describe, expect, it, vi } from 'vitest';
import { LAYER_ENCODINGS, type StreamKind } from '@sea/contract/live';
import { RECOVERY_ATTEMPTS, type MediaState } from './live-client.ts';
import { LiveRequestError } from './signalling-client.ts';
import { TeacherPublisher, type StreamState } from './teacher-publisher.ts';
import { fakeSignalling } from './test/fake-signalling.ts';

/** A sender's track history: what `replaceTrack` was given, in order. */
type FakeTransceiver = {
  mid: string | null;
  track: { id: string } | null;
  init: RTCRtpTransceiverInit;
  replaced: ({ id: string } | null)[];
  sender: { replaceTrack: (track: { id: string } | null) => Promise<void> };
};

/**
 * A publishing peer connection fake: transceivers get their mid when an offer is set (as in browsers),
 * offers are numbered, and the test can fail the connection.
 */
function fakePeerConnection(name: string) {
  const transceivers: FakeTransceiver[] = [];
  let offers = 0;
  const listeners: (() => void)[] = [];
  const pc = {
    name,
    closed: false,
    connectionState: 'new' as RTCPeerConnectionState,
    iceGatheringState: 'complete',
    localDescription: null as { type: string; sdp: string } | null,
    answers: [] as string[],
    transceivers,
    addTransceiver: (track: { id: string }, init: RTCRtpTransceiverInit) => {
      const transceiver: FakeTransceiver = {
        mid: null,
        track,
        init,
        replaced: [],
        sender: {
          replaceTrack: async (next) => {
            transceiver.replaced.push(next);
            transceiver.track = next;
          },
        },
      };
      transceivers.push(transceiver);
      return transceiver;
    },
    getTransceivers: () => transceivers,
    createOffer: async () => ({ type: 'offer', sdp: `${name}-offer-${(offers += 1)}` }),
    setLocalDescription: async (description: { type: string; sdp: string }) => {
      pc.localDescription = description;
      transceivers.forEach((transceiver, i) => (transceiver.mid ??= String(i)));
    },
    setRemoteDescription: async ({ sdp }: { sdp: string }) => void pc.answers.push(sdp),
    addEventListener: (_: string, listener: () => void) => void listeners.push(listener),
    removeEventListener: () => undefined,
    close: () => void (pc.closed = true),
    setState: (state: RTCPeerConnectionState) => {
      pc.connectionState = state;
      listeners.forEach((listener) => listener());
    },
  };
  return pc;
}

const track = (id: string) => ({ id }) as unknown as MediaStreamTrack;

/** A publisher on fakes, recording its events; `pcs` are the connections it opened, in order. */
function setup(options: { recoveryRetryMs?: number; record?: boolean } = {}) {
  let producers = 0;
  const fake = fakeSignalling({
    startRoom: () => ({ producers: [] }),
    getRouterRtpCapabilities: () => ({ codecs: [], iceServers: [], layers: LAYER_ENCODINGS }),
    createProducerTransport: () => ({
      transportId: `t${fake.names().filter((n) => n === 'createProducerTransport').length}`,
    }),
    connectProducerTransport: (payload) => ({ sdp: `answer-to-${(payload as { sdp: string }).sdp}` }),
    produce: () => ({ producerId: `p${(producers += 1)}` }),
    closeProducer: () => ({}),
    setRecording: (payload) => ({ recording: true, paused: !(payload as { recording: boolean }).recording }),
  });
  const pcs: ReturnType<typeof fakePeerConnection>[] = [];
  const publisher = new TeacherPublisher({
    signalling: fake.signalling,
    createPeerConnection: () => {
      const pc = fakePeerConnection(`pc${pcs.length + 1}`);
      pcs.push(pc);
      return pc as unknown as RTCPeerConnection;
    },
    recoveryRetryMs: options.recoveryRetryMs ?? 5,
    record: options.record,
  });
  const media: MediaState[] = [];
  const streams: string[] = [];
  publisher.on('mediaStateChanged', (state) => media.push(state));
  publisher.on('streamStateChanged', ({ kind, state }) => streams.push(`${kind}:${state}`));
  const produced = () =>
    fake.calls
      .filter((call) => call.name === 'produce')
      .map((call) => call.payload as { transportId: string; producerKind: StreamKind; mid: string });
  return { ...fake, publisher, pcs, media, streams, produced };
}

const states = (publisher: TeacherPublisher, kinds: StreamKind[]): StreamState[] =>
  kinds.map((kind) => publisher.streamState(kind));

describe('TeacherPublisher', () => {
  it('starts a recorded room by default, or one without recording, and pauses and resumes it', async () => {
    const recorded = setup();
    await recorded.publisher.start();
    expect(recorded.calls[0]).toMatchObject({ name: 'startRoom', payload: { record: true } });
    expect(await recorded.publisher.setRecording(false)).toEqual({ recording: true, paused: true });
    expect(recorded.calls.at(-1)).toMatchObject({ name: 'setRecording', payload: { recording: false } });

    const unrecorded = setup({ record: false });
    await unrecorded.publisher.start();
    expect(unrecorded.calls[0]).toMatchObject({ name: 'startRoom', payload: { record: false } });
  });

  it('starts the room, then publishes the webcam with the three simulcast layers on one negotiation', async () => {
    const { publisher, names, pcs, media, streams, produced, calls } = setup();
    await publisher.start();
    expect(names()).toEqual(['startRoom', 'getRouterRtpCapabilities', 'createProducerTransport']);
    expect(media).toEqual(['connected']);
    expect(publisher.mediaState).toBe('connected');

    await publisher.publish('webcamVideo', track('cam'));
    const [pc] = pcs;
    expect(pc?.transceivers).toHaveLength(1);
    expect(pc?.transceivers[0]?.init).toEqual({ direction: 'sendonly', sendEncodings: LAYER_ENCODINGS });
    expect(calls.find((call) => call.name === 'connectProducerTransport')?.payload).toEqual({
      transportId: 't1',
      sdp: 'pc1-offer-1',
    });
    expect(pc?.answers).toEqual(['answer-to-pc1-offer-1']);
    expect(produced()).toEqual([{ transportId: 't1', producerKind: 'webcamVideo', mid: '0' }]);
    expect(streams).toEqual(['webcamVideo:publishing', 'webcamVideo:published']);

    // Audio gets its own m-line, without layers.
    await publisher.publish('webcamAudio', track('mic'));
    expect(pc?.transceivers[1]?.init).toEqual({ direction: 'sendonly', sendEncodings: undefined });
    expect(produced().at(-1)).toEqual({ transportId: 't1', producerKind: 'webcamAudio', mid: '1' });
    expect(states(publisher, ['webcamVideo', 'webcamAudio', 'screenShareVideo'])).toEqual([
      'published',
      'published',
      'off',
    ]);
  });

  it('switching a stream off keeps its m-line silent and reuses it when switched on again (no renegotiation)', async () => {
    const { publisher, names, pcs, produced, streams } = setup();
    await publisher.start();
    await publisher.publish('screenShareVideo', track('screen-1'));
    await publisher.unpublish('screenShareVideo');
    const [pc] = pcs;
    expect(names().at(-1)).toBe('closeProducer');
    expect(pc?.transceivers[0]?.replaced).toEqual([null]);
    expect(publisher.streamState('screenShareVideo')).toBe('off');

    const negotiations = names().filter((name) => name === 'connectProducerTransport').length;
    await publisher.publish('screenShareVideo', track('screen-2'));
    expect(pc?.transceivers).toHaveLength(1);
    expect(pc?.transceivers[0]?.replaced).toEqual([null, track('screen-2')]);
    expect(names().filter((name) => name === 'connectProducerTransport')).toHaveLength(negotiations);
    expect(produced().map((p) => p.mid)).toEqual(['0', '0']);
    expect(streams).toEqual([
      'screenShareVideo:publishing',
      'screenShareVideo:published',
      'screenShareVideo:off',
      'screenShareVideo:publishing',
      'screenShareVideo:published',
    ]);
  });

  it('publishing a kind again replaces its track: the old producer is closed first', async () => {
    const { publisher, names, pcs } = setup();
    await publisher.start();
    await publisher.publish('webcamAudio', track('mic-1'));
    await publisher.publish('webcamAudio', track('mic-2'));
    expect(names().slice(-2)).toEqual(['closeProducer', 'produce']);
    expect(pcs[0]?.transceivers).toHaveLength(1);
    expect(pcs[0]?.transceivers[0]?.track).toEqual(track('mic-2'));
  });

  it('starts the room again naming the students last seen invited or speaking (a new room gives the turn back)', async () => {
    const { publisher, emit, calls } = setup();
    await publisher.start();
    expect(calls[0]?.payload).toEqual({ record: true });
    const speaker = (userId: string, state: 'invited' | 'speaking') => ({
      userId,
      nickname: userId,
      state,
      producerId: null,
    });
    emit('speakerChanged', { speakers: [speaker('s1', 'speaking'), speaker('s2', 'invited')], self: 'none' });
    emit('reconnected', undefined);
    await expect.poll(() => calls.filter((call) => call.name === 'startRoom').length).toBe(2);
    expect(calls.filter((call) => call.name === 'startRoom')[1]?.payload).toEqual({
      record: true,
      speakers: ['s1', 's2'],
    });
    // A turn ended before the loss is not named again.
    emit('speakerChanged', { speakers: [], self: 'none' });
    emit('reconnected', undefined);
    await expect.poll(() => calls.filter((call) => call.name === 'startRoom').length).toBe(3);
    expect(calls.filter((call) => call.name === 'startRoom')[2]?.payload).toEqual({ record: true });
  });

  it('after a signalling reconnection starts the room again and republishes what was on, on a fresh connection', async () => {
    const { publisher, pcs, emit, names, produced, media } = setup();
    await publisher.start();
    await publisher.publish('webcamVideo', track('cam'));
    await publisher.publish('webcamAudio', track('mic'));
    await publisher.publish('screenShareVideo', track('screen'));
    await publisher.unpublish('screenShareVideo'); // off: stays off after the reconnection
    const before = names().length;

    emit('reconnected', undefined);
    await expect.poll(() => produced().length).toBe(5);
    expect(names().slice(before)).toEqual([
      'startRoom',
      'getRouterRtpCapabilities',
      'createProducerTransport',
      'connectProducerTransport',
      'produce',
      'connectProducerTransport',
      'produce',
    ]);
    expect(pcs).toHaveLength(2);
    expect(pcs[0]?.closed).toBe(true);
    // The old connection's idle m-lines are not reused on the new one: each stream gets its own again.
    expect(pcs[1]?.transceivers.map((t) => t.track)).toEqual([track('cam'), track('mic')]);
    expect(pcs[1]?.transceivers[0]?.init.sendEncodings).toEqual(LAYER_ENCODINGS);
    expect(produced().slice(-2)).toEqual([
      { transportId: 't2', producerKind: 'webcamVideo', mid: '0' },
      { transportId: 't2', producerKind: 'webcamAudio', mid: '1' },
    ]);
    await expect.poll(() => media).toEqual(['connected', 'connecting', 'connected']);
    expect(states(publisher, ['webcamVideo', 'webcamAudio', 'screenShareVideo'])).toEqual([
      'published',
      'published',
      'off',
    ]);
    publisher.close();
  });

  it('recovers by itself when the media connection fails, retrying a failed attempt', async () => {
    const { publisher, pcs, answers, names, media, produced } = setup();
    await publisher.start();
    await publisher.publish('webcamVideo', track('cam'));
    pcs[0]?.setState('connected');
    let refusals = 1;
    answers.startRoom = () => {
      if (refusals-- > 0) throw new LiveRequestError('timeout', '미디어 서버가 응답하지 않아요.');
      return { producers: [] };
    };

    pcs[0]?.setState('disconnected');
    expect(publisher.mediaState).toBe('connecting');
    pcs[0]?.setState('failed');
    await expect.poll(() => produced().length).toBe(2);
    expect(names().filter((name) => name === 'startRoom')).toHaveLength(3);
    expect(pcs).toHaveLength(2);
    expect(pcs[0]?.closed).toBe(true);
    expect(publisher.peerConnection).toBe(pcs[1]);
    await expect.poll(() => publisher.mediaState).toBe('connected');
    expect(media).toEqual(['connected', 'connecting', 'connected']);
    expect(publisher.streamState('webcamVideo')).toBe('published');
    publisher.close();
  });

  it('an interrupted connection that comes back is connected again without starting over', async () => {
    const { publisher, pcs, media, names } = setup();
    await publisher.start();
    await publisher.publish('webcamAudio', track('mic'));
    pcs[0]?.setState('connected');
    pcs[0]?.setState('disconnected');
    pcs[0]?.setState('connected');
    expect(media).toEqual(['connected', 'connecting', 'connected']);
    expect(names().filter((name) => name === 'startRoom')).toHaveLength(1);
    publisher.close();
  });

  it('gives up when the room may not be taught any more: media failed, the streams failed, no retry', async () => {
    const { publisher, pcs, answers, names, media, streams } = setup();
    await publisher.start();
    await publisher.publish('webcamAudio', track('mic'));
    answers.startRoom = () => {
      throw new LiveRequestError('forbidden', '강사만 할 수 있어요.');
    };
    pcs[0]?.setState('failed');
    await expect.poll(() => publisher.mediaState).toBe('failed');
    expect(media).toEqual(['connected', 'connecting', 'failed']);
    expect(streams.at(-1)).toBe('webcamAudio:failed');
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(names().filter((name) => name === 'startRoom')).toHaveLength(2);
    publisher.close();
  });

  it(`gives up after ${RECOVERY_ATTEMPTS} failed attempts, and starts over at the next reconnection`, async () => {
    const { publisher, pcs, answers, emit, names, media } = setup({ recoveryRetryMs: 1 });
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    await publisher.start();
    await publisher.publish('webcamVideo', track('cam'));
    answers.startRoom = () => {
      throw new LiveRequestError('offline', '미디어 서버와 연결이 끊겼어요.');
    };
    pcs[0]?.setState('failed');
    await expect.poll(() => publisher.mediaState, { timeout: 3_000 }).toBe('failed');
    expect(names().filter((name) => name === 'startRoom')).toHaveLength(1 + RECOVERY_ATTEMPTS);
    expect(publisher.streamState('webcamVideo')).toBe('failed');
    // Attempts that only found the signalling offline are not logged: the browser logs the socket's own
    // reconnection attempts, one line each (issue 32 item 19).
    expect(warn).not.toHaveBeenCalled();
    warn.mockRestore();

    answers.startRoom = () => ({ producers: [] });
    emit('reconnected', undefined);
    await expect.poll(() => publisher.streamState('webcamVideo')).toBe('published');
    expect(media).toEqual(['connected', 'connecting', 'failed', 'connecting', 'connected']);
    publisher.close();
  });

  it('passes the viewer count and the participants on; close is idempotent, closes the connection and stops listening', async () => {
    const { publisher, pcs, emit, listening, media } = setup();
    const counts: number[] = [];
    publisher.on('viewerCount', (count) => counts.push(count));
    await publisher.start();
    await publisher.publish('webcamAudio', track('mic'));
    emit('viewerCount', { count: 3 });
    expect(counts).toEqual([3]);
    const lists: unknown[] = [];
    publisher.on('participants', (students) => lists.push(students));
    emit('participants', { students: [{ userId: 's1', nickname: '바다' }] });
    expect(lists).toEqual([[{ userId: 's1', nickname: '바다' }]]);
    publisher.close();
    publisher.close();
    expect(pcs[0]?.closed).toBe(true);
    expect(listening()).toBe(0);
    pcs[0]?.setState('failed');
    emit('reconnected', undefined);
    expect(media).toEqual(['connected']);
  });

  it('a failed start says so and leaves the failure to the caller', async () => {
    const { publisher, answers, media } = setup();
    answers.startRoom = () => {
      throw new LiveRequestError('forbidden', '강사만 할 수 있어요.');
    };
    await expect(publisher.start()).rejects.toMatchObject({ code: 'forbidden' });
    expect(media).toEqual(['failed']);
    publisher.close();
  });
});
