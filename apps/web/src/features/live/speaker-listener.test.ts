import { describe, expect, it } from 'vitest';
import type { ConsumerInfo, SpeakingView } from '@sea/contract/live';
import { LiveRequestError } from './signalling-client.ts';
import { SpeakerListener } from './speaker-listener.ts';
import { CONSUME_TWO_TRACKS, fakeSignalling } from './test/fake-signalling.ts';

function fakeReceivingConnection(mids: string[]) {
  const transceivers = mids.map((mid) => ({ mid, receiver: { track: { id: `track-${mid}` } } }));
  const pc = {
    iceGatheringState: 'complete',
    localDescription: { type: 'answer', sdp: 'answer' },
    closed: false,
    setRemoteDescription: async () => undefined,
    createAnswer: async () => ({ type: 'answer', sdp: 'answer' }),
    setLocalDescription: async () => undefined,
    getTransceivers: () => transceivers,
    addEventListener: () => undefined,
    removeEventListener: () => undefined,
    close: () => void (pc.closed = true),
  };
  return pc;
}

const speaking = (...producerIds: (string | null)[]): SpeakingView => ({
  speakers: producerIds.map((producerId, i) => ({
    userId: `s${i}`,
    nickname: `학생${i}`,
    state: producerId ? 'speaking' : 'invited',
    producerId,
  })),
  self: 'none',
});

const mic = (producerId: string, mid: string): ConsumerInfo => ({
  consumerId: `c-${producerId}`,
  producerId,
  producerKind: 'speakerAudio',
  mid,
});

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('SpeakerListener', () => {
  it('opens no connection until a speaker publishes, then hears each speaker and drops the one who ended', async () => {
    let consumers: ConsumerInfo[] = [];
    const fake = fakeSignalling({
      inviteToSpeak: () => speaking(null),
      endSpeaking: () => speaking('p2'),
      getRouterRtpCapabilities: () => ({ codecs: [], iceServers: [], layers: [] }),
      createConsumerTransport: () => ({ transportId: 'ct' }),
      consume: () => ({ sdp: 'offer', consumers }),
      connectConsumerTransport: () => ({}),
      resume: () => ({}),
    });
    const pc = fakeReceivingConnection(['0', '1']);
    const listener = new SpeakerListener({
      signalling: fake.signalling,
      createPeerConnection: () => pc as unknown as RTCPeerConnection,
    });
    const tracks: string[] = [];
    listener.on('trackAdded', ({ producerId, track }) => tracks.push(`+${producerId}:${track.id}`));
    listener.on('trackRemoved', ({ producerId }) => tracks.push(`-${producerId}`));

    await listener.invite('s0');
    await flush();
    expect(fake.names()).toEqual(['inviteToSpeak']); // invited, nothing published yet

    consumers = [mic('p1', '0'), mic('p2', '1')];
    fake.emit('speakerChanged', speaking('p1', 'p2'));
    await flush();
    await flush();
    expect(fake.names().slice(1)).toEqual(CONSUME_TWO_TRACKS);
    expect(tracks).toEqual(['+p1:track-0', '+p2:track-1']);

    consumers = [mic('p2', '1')];
    await listener.end('s0');
    await flush();
    await flush();
    expect(fake.calls.find((c) => c.name === 'endSpeaking')?.payload).toEqual({ userId: 's0' });
    expect(tracks.at(-1)).toBe('-p1');

    listener.close();
    expect(pc.closed).toBe(true);
    expect(fake.listening()).toBe(0);
  });

  it('resumes a new speaker beside the answer, and answers without waiting for ICE gathering', async () => {
    const fake = fakeSignalling({
      getRouterRtpCapabilities: () => ({ codecs: [], iceServers: [], layers: [] }),
      createConsumerTransport: () => ({ transportId: 'ct' }),
      consume: () => ({ sdp: 'offer', consumers: [mic('p1', '0')] }),
      connectConsumerTransport: () => ({}),
      resume: () => ({}),
    });
    // Still gathering, and it would stay so: the SFU needs none of the browser's candidates.
    const pc = { ...fakeReceivingConnection(['0']), iceGatheringState: 'gathering' };
    const listener = new SpeakerListener({
      signalling: fake.signalling,
      createPeerConnection: () => pc as unknown as RTCPeerConnection,
    });
    const tracks: string[] = [];
    listener.on('trackAdded', ({ producerId }) => tracks.push(`+${producerId}`));
    fake.emit('speakerChanged', speaking('p1'));
    for (let i = 0; i < 3; i += 1) await flush();
    expect(fake.names()).toEqual([
      'getRouterRtpCapabilities',
      'createConsumerTransport',
      'consume',
      'resume',
      'connectConsumerTransport',
    ]);
    expect(tracks).toEqual(['+p1']);
    listener.close();
  });

  it("starts over on a new receiving transport when the server forgot the old one (the teacher's room restarted)", async () => {
    let transports = 0;
    let forgotten = false;
    let consumers = [mic('p1', '0')];
    const fake = fakeSignalling({
      getRouterRtpCapabilities: () => ({ codecs: [], iceServers: [], layers: [] }),
      createConsumerTransport: () => ({ transportId: `ct${(transports += 1)}` }),
      consume: (payload) => {
        if (forgotten && (payload as { transportId: string }).transportId === 'ct1')
          throw new LiveRequestError('notFound', '요청한 연결을 찾을 수 없어요.');
        return { sdp: 'offer', consumers };
      },
      connectConsumerTransport: () => ({}),
      resume: () => ({}),
    });
    const pcs = [fakeReceivingConnection(['0', '1']), fakeReceivingConnection(['0', '1'])];
    let made = 0;
    const listener = new SpeakerListener({
      signalling: fake.signalling,
      createPeerConnection: () => pcs[made++] as unknown as RTCPeerConnection,
    });
    const tracks: string[] = [];
    listener.on('trackAdded', ({ producerId }) => tracks.push(`+${producerId}`));
    listener.on('trackRemoved', ({ producerId }) => tracks.push(`-${producerId}`));
    fake.emit('speakerChanged', speaking('p1'));
    await flush();
    await flush();
    expect(tracks).toEqual(['+p1']);

    // The teacher's room started again on this connection: the server closed ct1 with the old peer.
    forgotten = true;
    consumers = [mic('p1', '0'), mic('p2', '1')];
    fake.emit('speakerChanged', speaking('p1', 'p2'));
    for (let i = 0; i < 4; i += 1) await flush();
    expect(fake.calls.filter((c) => c.name === 'createConsumerTransport')).toHaveLength(2);
    expect(pcs[0]?.closed).toBe(true);
    expect(tracks).toEqual(['+p1', '-p1', '+p1', '+p2']);
    listener.close();
  });
});
