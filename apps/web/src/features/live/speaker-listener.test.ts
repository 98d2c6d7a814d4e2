import { describe, expect, it } from 'vitest';
import type { ConsumerInfo, SpeakingView } from '@sea/contract/live';
import { SpeakerListener } from './speaker-listener.ts';
import { fakeSignalling } from './test/fake-signalling.ts';

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
    expect(fake.names().slice(1)).toEqual([
      'getRouterRtpCapabilities',
      'createConsumerTransport',
      'consume',
      'connectConsumerTransport',
      'resume',
      'resume',
    ]);
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
});
