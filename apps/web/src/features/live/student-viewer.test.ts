import { describe, expect, it } from 'vitest';
import type { ConsumerInfo } from '@sea/contract/live';
import { LiveRequestError } from './signalling-client.ts';
import { StudentViewer } from './student-viewer.ts';
import { CONSUME_TWO_TRACKS, fakeSignalling } from './test/fake-signalling.ts';

/** The shared signalling fake, answering a viewer's requests; each `consume` answers the next list of consumers. */
function viewerSignalling(consumersPerConsume: ConsumerInfo[][]) {
  let consumeCount = 0;
  return fakeSignalling({
    joinRoom: () => ({ producers: [] }),
    getRouterRtpCapabilities: () => ({ codecs: [], iceServers: [], layers: [] }),
    createConsumerTransport: () => ({ transportId: 't1' }),
    consume: () => ({ sdp: `offer-${consumeCount}`, consumers: consumersPerConsume[consumeCount++] ?? [] }),
    connectConsumerTransport: () => ({}),
    resume: () => ({}),
    setPreferredLayer: () => ({}),
  });
}

/** A peer connection fake with one transceiver per mid seen in the consumers. */
function fakePeerConnection(mids: string[]) {
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
    fail: () => {
      pc.connectionState = 'failed';
      pc.listeners.forEach((listener) => listener());
    },
  };
  return pc;
}

const consumer = (producerKind: ConsumerInfo['producerKind'], mid: string, id = `${producerKind}-1`) => ({
  consumerId: id,
  producerId: `p-${id}`,
  producerKind,
  mid,
});

const flush = () => new Promise((resolve) => setTimeout(resolve, 0));

describe('StudentViewer', () => {
  it('joins, answers the offer, resumes every consumer and announces its track', async () => {
    const { signalling, calls } = viewerSignalling([
      [consumer('webcamVideo', '0'), consumer('webcamAudio', '1')],
    ]);
    const pc = fakePeerConnection(['0', '1']);
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => pc as unknown as RTCPeerConnection,
    });
    const added: string[] = [];
    viewer.on('trackAdded', ({ kind, track }) => added.push(`${kind}:${track.id}`));
    await viewer.join();
    expect(calls.map((c) => c.name)).toEqual(['joinRoom', ...CONSUME_TWO_TRACKS]);
    expect(pc.remote).toEqual(['offer-0']);
    expect(added).toEqual(['webcamVideo:track-0', 'webcamAudio:track-1']);
  });

  it('follows the teacher: a closed stream is removed, a new one added, one renegotiation per burst', async () => {
    const { signalling, calls, emit } = viewerSignalling([
      [consumer('webcamVideo', '0'), consumer('webcamAudio', '1')],
      [consumer('webcamAudio', '1'), consumer('webcamVideo', '0', 'webcamVideo-2')],
    ]);
    const pc = fakePeerConnection(['0', '1']);
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => pc as unknown as RTCPeerConnection,
    });
    const events: string[] = [];
    viewer.on('trackAdded', ({ kind }) => events.push(`added:${kind}`));
    viewer.on('trackRemoved', ({ kind }) => events.push(`removed:${kind}`));
    await viewer.join();
    emit('producerClosed', { producerId: 'p-webcamVideo-1', producerKind: 'webcamVideo' });
    emit('newProducer', { producerId: 'p-webcamVideo-2', producerKind: 'webcamVideo' });
    await flush();
    await flush();
    expect(calls.filter((c) => c.name === 'consume')).toHaveLength(2);
    expect(events).toEqual([
      'added:webcamVideo',
      'added:webcamAudio',
      'removed:webcamVideo',
      'added:webcamVideo',
    ]);
    expect(calls.at(-1)).toEqual({ name: 'resume', payload: { consumerId: 'webcamVideo-2' } });
  });

  it('applies the chosen quality to the webcam, also to a later webcam stream', async () => {
    const { signalling, calls } = viewerSignalling([[consumer('webcamVideo', '0')]]);
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => fakePeerConnection(['0']) as unknown as RTCPeerConnection,
    });
    await viewer.setLayer('q');
    await viewer.join();
    expect(calls.find((c) => c.name === 'setPreferredLayer')?.payload).toEqual({
      consumerId: 'webcamVideo-1',
      layer: 'q',
    });
    await viewer.setLayer('f');
    expect(calls.at(-1)).toEqual({
      name: 'setPreferredLayer',
      payload: { consumerId: 'webcamVideo-1', layer: 'f' },
    });
  });

  it('applies a quality chosen while the webcam stream is being set up', async () => {
    const { signalling, calls, answers } = viewerSignalling([[consumer('webcamVideo', '0')]]);
    let open: () => void = () => {};
    const gate = new Promise<void>((resolve) => (open = resolve));
    answers.resume = async () => {
      await gate;
      return {};
    };
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => fakePeerConnection(['0']) as unknown as RTCPeerConnection,
    });
    const joined = viewer.join();
    await expect.poll(() => calls.some((c) => c.name === 'resume')).toBe(true);
    // The student picks a quality while the new webcam stream is still being resumed.
    const chosen = viewer.setLayer('h');
    open();
    await Promise.all([joined, chosen]);
    expect(calls.at(-1)).toEqual({
      name: 'setPreferredLayer',
      payload: { consumerId: 'webcamVideo-1', layer: 'h' },
    });
  });

  it('joins again on a fresh connection when the media connection fails', async () => {
    const { signalling, calls } = viewerSignalling([
      [consumer('webcamAudio', '1')],
      [consumer('webcamAudio', '1', 'a-2')],
    ]);
    const pcs = [fakePeerConnection(['1']), fakePeerConnection(['1'])];
    let created = 0;
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => pcs[created++] as unknown as RTCPeerConnection,
    });
    await viewer.join();
    pcs[0]?.fail();
    await flush();
    await flush();
    expect(calls.filter((c) => c.name === 'joinRoom')).toHaveLength(2);
    expect(pcs[0]?.closed).toBe(true);
    expect(viewer.peerConnection).toBe(pcs[1]);
    expect(calls.at(-1)).toEqual({ name: 'resume', payload: { consumerId: 'a-2' } });
  });

  it('announces the end once and stops renegotiating; close is idempotent', async () => {
    const { signalling, calls, emit } = viewerSignalling([[]]);
    const pc = fakePeerConnection([]);
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => pc as unknown as RTCPeerConnection,
    });
    let ended = 0;
    viewer.on('ended', () => (ended += 1));
    await viewer.join();
    emit('teacherLeft', {});
    emit('newProducer', { producerId: 'x', producerKind: 'webcamAudio' });
    await flush();
    expect(ended).toBe(1);
    expect(calls.filter((c) => c.name === 'consume')).toHaveLength(1);
    viewer.close();
    viewer.close();
    expect(pc.closed).toBe(true);
  });

  it('after a reconnection joins again, retrying a failed attempt until it works', async () => {
    const { signalling, calls, emit, answers } = viewerSignalling([
      [consumer('webcamAudio', '1')],
      [consumer('webcamAudio', '1', 'a-2')],
    ]);
    let created = 0;
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => {
        created += 1;
        return fakePeerConnection(['1']) as unknown as RTCPeerConnection;
      },
      recoveryRetryMs: 5,
    });
    await viewer.join();
    // The server is back but not ready: the first attempt times out, the second one works.
    let refusals = 1;
    answers.joinRoom = () => {
      if (refusals-- > 0) throw new LiveRequestError('timeout', '미디어 서버가 응답하지 않아요.');
      return { producers: [] };
    };
    emit('reconnected', undefined);
    await expect.poll(() => calls.filter((c) => c.name === 'resume').length).toBe(2);
    expect(calls.filter((c) => c.name === 'joinRoom')).toHaveLength(3);
    expect(created).toBe(2);
    expect(calls.at(-1)).toEqual({ name: 'resume', payload: { consumerId: 'a-2' } });
    viewer.close();
  });

  it('negotiates again when the teacher replaced a stream between consume and resume (nothing ends)', async () => {
    const { signalling, calls, answers } = viewerSignalling([
      [consumer('webcamVideo', '0'), consumer('webcamAudio', '1')],
      [consumer('webcamVideo', '0', 'webcamVideo-2'), consumer('webcamAudio', '1')],
    ]);
    answers.resume = () => {
      const last = calls.at(-1)?.payload as { consumerId: string };
      if (last.consumerId === 'webcamVideo-1') throw new LiveRequestError('notFound', '찾을 수 없어요.');
      return {};
    };
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => fakePeerConnection(['0', '1']) as unknown as RTCPeerConnection,
    });
    const events: string[] = [];
    viewer.on('trackAdded', ({ kind }) => events.push(`added:${kind}`));
    viewer.on('ended', () => events.push('ended'));
    await viewer.join();
    await expect.poll(() => calls.filter((c) => c.name === 'consume').length).toBe(2);
    await expect.poll(() => events).toEqual(['added:webcamAudio', 'added:webcamVideo']);
    expect(calls.at(-1)).toEqual({ name: 'resume', payload: { consumerId: 'webcamVideo-2' } });
    viewer.close();
  });

  it('does not give up when a recovery meets a transport that went away: it joins again', async () => {
    const { signalling, calls, emit, answers } = viewerSignalling([
      [consumer('webcamAudio', '1')],
      [consumer('webcamAudio', '1', 'a-2')],
    ]);
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => fakePeerConnection(['1']) as unknown as RTCPeerConnection,
      recoveryRetryMs: 5,
    });
    const ended: string[] = [];
    viewer.on('ended', () => ended.push('ended'));
    await viewer.join();
    let refusals = 1;
    answers.createConsumerTransport = () => {
      if (refusals-- > 0) throw new LiveRequestError('notFound', '찾을 수 없어요.');
      return { transportId: 't2' };
    };
    emit('reconnected', undefined);
    await expect.poll(() => calls.filter((c) => c.name === 'resume').length).toBe(2);
    expect(ended).toEqual([]);
    viewer.close();
  });

  it('says the class ended when it is no longer live after a reconnection', async () => {
    const { signalling, emit, answers } = viewerSignalling([[]]);
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => fakePeerConnection([]) as unknown as RTCPeerConnection,
      recoveryRetryMs: 5,
    });
    let ended = 0;
    viewer.on('ended', () => (ended += 1));
    await viewer.join();
    answers.joinRoom = () => {
      throw new LiveRequestError('notLive', '지금은 라이브 중이 아니에요.');
    };
    emit('reconnected', undefined);
    await expect.poll(() => ended).toBe(1);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(ended).toBe(1);
    viewer.close();
  });

  it('waits out a restart of the media node: notLive is retried, the state says restarting, then connected', async () => {
    const { signalling, emit, answers, calls } = viewerSignalling([[], []]);
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => fakePeerConnection([]) as unknown as RTCPeerConnection,
      recoveryRetryMs: 5,
    });
    const states: string[] = [];
    viewer.on('mediaStateChanged', (state) => states.push(state));
    let ended = 0;
    viewer.on('ended', () => (ended += 1));
    await viewer.join();
    // The node stops; it comes back before the teacher has started the room again.
    let notYet = 3;
    answers.joinRoom = () => {
      if (notYet-- > 0) throw new LiveRequestError('notLive', '지금은 라이브 중이 아니에요.');
      return { producers: [] };
    };
    emit('nodeStopped', {});
    expect(viewer.mediaState).toBe('restarting');
    emit('reconnected', undefined);
    await expect.poll(() => viewer.mediaState).toBe('connected');
    expect(calls.filter((c) => c.name === 'joinRoom')).toHaveLength(5);
    expect(ended).toBe(0);
    expect(states).toEqual(['connected', 'restarting', 'connected']);
    viewer.close();
  });

  it('after the restart wait, a class still not live has ended', async () => {
    const { signalling, emit, answers } = viewerSignalling([[]]);
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => fakePeerConnection([]) as unknown as RTCPeerConnection,
      recoveryRetryMs: 5,
      restartWaitMs: 50,
    });
    let ended = 0;
    viewer.on('ended', () => (ended += 1));
    await viewer.join();
    answers.joinRoom = () => {
      throw new LiveRequestError('notLive', '지금은 라이브 중이 아니에요.');
    };
    emit('nodeStopped', {});
    emit('reconnected', undefined);
    await new Promise((resolve) => setTimeout(resolve, 30));
    expect(ended).toBe(0);
    await expect.poll(() => ended).toBe(1);
    expect(viewer.mediaState).toBe('failed');
    viewer.close();
  });
});
