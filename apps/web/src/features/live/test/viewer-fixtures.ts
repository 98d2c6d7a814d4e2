import type { ConsumerInfo } from '@sea/contract/live';
import { fakeSignalling } from './fake-signalling.ts';

/** The shared signalling fake, answering a viewer's requests; each `consume` answers the next list of consumers. */
export function viewerSignalling(consumersPerConsume: ConsumerInfo[][]) {
  let consumeCount = 0;
  return fakeSignalling({
    joinRoom: () => ({ producers: [] }),
    getRouterRtpCapabilities: () => ({ codecs: [], iceServers: [], layers: [] }),
    createConsumerTransport: () => ({ transportId: 't1' }),
    consume: () => ({ sdp: `offer-${consumeCount}`, consumers: consumersPerConsume[consumeCount++] ?? [] }),
    connectConsumerTransport: () => ({}),
    resume: () => ({}),
    pause: () => ({}),
    setPreferredLayer: () => ({}),
  });
}

/** A peer connection fake with one transceiver per mid seen in the consumers. */
export function fakePeerConnection(mids: string[]) {
  const transceivers = mids.map((mid) => ({ mid, receiver: { track: { id: `track-${mid}` } } }));
  const pc = {
    iceGatheringState: 'complete',
    localDescription: { type: 'answer', sdp: 'answer' },
    remote: [] as string[],
    closed: false,
    setRemoteDescription: async ({ sdp }: { sdp: string }) => void pc.remote.push(sdp),
    createAnswer: async () => ({ type: 'answer', sdp: 'answer' }),
    setLocalDescription: async () => undefined,
    getTransceivers: () => transceivers,
    connectionState: 'connected',
    listeners: [] as (() => void)[],
    addEventListener: (_: string, listener: () => void) => void pc.listeners.push(listener),
    removeEventListener: () => undefined,
    close: () => void (pc.closed = true),
    fail: () => pc.become('failed'),
    become: (state: string) => {
      pc.connectionState = state;
      pc.listeners.forEach((listener) => listener());
    },
  };
  return pc;
}

/** A consumer of a producer of that kind, received on `mid`. */
export const consumer = (
  producerKind: ConsumerInfo['producerKind'],
  mid: string,
  id = `${producerKind}-1`,
) => ({
  consumerId: id,
  producerId: `p-${id}`,
  producerKind,
  mid,
});

/** Lets every pending promise callback run. */
export const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

/** The last stream resumed: resumes go beside the answer, so the connection's request may come after it. */
export const lastResume = (calls: readonly { name: string }[]) =>
  calls.filter((call) => call.name === 'resume').at(-1);

/** An answer of the signalling fake that waits until the test calls `release`. */
export function heldAnswer() {
  let release: () => void = () => {};
  const released = new Promise<void>((resolve) => (release = resolve));
  const answer = async () => {
    await released;
    return {};
  };
  return { answer, release: () => release() };
}
