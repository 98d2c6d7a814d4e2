import { afterEach, describe, expect, it, vi } from 'vitest';
import { LiveRequestError } from './signalling-client.ts';
import { StudentViewer } from './student-viewer.ts';
import { consumer, fakePeerConnection, flush, lastResume, viewerSignalling } from './test/viewer-fixtures.ts';

afterEach(() => vi.restoreAllMocks());

describe('StudentViewer recovery', () => {
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
    expect(lastResume(calls)).toEqual({ name: 'resume', payload: { consumerId: 'a-2' } });
  });

  it('answers without waiting for ICE gathering, entering and recovering', async () => {
    const { signalling, calls } = viewerSignalling([
      [consumer('webcamAudio', '1')],
      [consumer('webcamAudio', '1', 'a-2')],
    ]);
    // Gathering never completes: the wait for it would take its 3 s limit each time.
    const pcs = [fakePeerConnection(['1']), fakePeerConnection(['1'])];
    for (const pc of pcs) pc.iceGatheringState = 'gathering';
    let created = 0;
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => pcs[created++] as unknown as RTCPeerConnection,
    });
    const answers = () => calls.filter((c) => c.name === 'connectConsumerTransport').length;
    let joined = false;
    void viewer.join().then(() => (joined = true));
    await expect.poll(() => joined, { timeout: 1_000 }).toBe(true);
    expect(answers()).toBe(1);
    pcs[0]?.fail();
    await expect.poll(answers, { timeout: 1_000 }).toBe(2);
    viewer.close();
  });

  it('replaces a media connection that stays disconnected, and keeps one that comes back in time', async () => {
    const { signalling, calls } = viewerSignalling([
      [consumer('webcamAudio', '1')],
      [consumer('webcamAudio', '1', 'a-2')],
    ]);
    const pcs = [fakePeerConnection(['1']), fakePeerConnection(['1'])];
    let created = 0;
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => pcs[created++] as unknown as RTCPeerConnection,
      disconnectedWaitMs: 30,
    });
    await viewer.join();
    // A blip: back within the wait, the same connection goes on.
    pcs[0]?.become('disconnected');
    expect(viewer.mediaState).toBe('connecting');
    pcs[0]?.become('connected');
    await new Promise((resolve) => setTimeout(resolve, 60));
    expect(viewer.mediaState).toBe('connected');
    expect(calls.filter((c) => c.name === 'joinRoom')).toHaveLength(1);
    // Still disconnected after the wait (the browser could take some 15 s to say 'failed'): a fresh one.
    pcs[0]?.become('disconnected');
    await expect.poll(() => calls.filter((c) => c.name === 'joinRoom').length).toBe(2);
    await expect.poll(() => viewer.peerConnection).toBe(pcs[1]);
    expect(pcs[0]?.closed).toBe(true);
    await expect.poll(() => viewer.mediaState).toBe('connected');
    viewer.close();
  });

  it('replaces a media connection stuck connecting, keeps one that connects in time or has nothing to carry', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { signalling, calls } = viewerSignalling([
      [consumer('webcamAudio', '1')],
      [consumer('webcamAudio', '1', 'a-2')],
      [consumer('webcamAudio', '1', 'a-3')],
    ]);
    const pcs = [fakePeerConnection(['1']), fakePeerConnection(['1']), fakePeerConnection(['1'])];
    let created = 0;
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => pcs[created++] as unknown as RTCPeerConnection,
      connectWaitMs: 40,
    });
    await viewer.join();
    // Nothing to carry yet: a connection that stays 'new' is left alone.
    pcs[0]?.become('new');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls.filter((c) => c.name === 'joinRoom')).toHaveLength(1);
    // Connecting and never through (its DTLS lost): replaced after the wait, with one warning.
    pcs[0]?.become('connecting');
    await expect.poll(() => calls.filter((c) => c.name === 'joinRoom').length).toBe(2);
    await expect.poll(() => viewer.peerConnection).toBe(pcs[1]);
    expect(pcs[0]?.closed).toBe(true);
    expect(warn).toHaveBeenCalledTimes(1);
    // The next one gets through late, but within the wait: kept.
    pcs[1]?.become('connecting');
    await new Promise((resolve) => setTimeout(resolve, 20));
    pcs[1]?.become('connected');
    await new Promise((resolve) => setTimeout(resolve, 100));
    expect(calls.filter((c) => c.name === 'joinRoom')).toHaveLength(2);
    expect(viewer.peerConnection).toBe(pcs[1]);
    expect(viewer.mediaState).toBe('connected');
    viewer.close();
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
    expect(lastResume(calls)).toEqual({ name: 'resume', payload: { consumerId: 'a-2' } });
    viewer.close();
  });

  it('logs one line per recovery, none while the signalling is offline (the browser logs its attempts)', async () => {
    const warn = vi.spyOn(console, 'warn').mockImplementation(() => undefined);
    const { signalling, calls, emit, answers } = viewerSignalling([
      [consumer('webcamAudio', '1')],
      [consumer('webcamAudio', '1', 'a-2')],
    ]);
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => fakePeerConnection(['1']) as unknown as RTCPeerConnection,
      recoveryRetryMs: 5,
    });
    await viewer.join();
    // An outage: five attempts find the signalling offline, then three meet a server not ready yet.
    const failures = [
      ...Array.from({ length: 5 }, () => new LiveRequestError('offline', '미디어 서버와 연결이 끊겼어요.')),
      ...Array.from({ length: 3 }, () => new LiveRequestError('timeout', '미디어 서버가 응답하지 않아요.')),
    ];
    answers.joinRoom = () => {
      const failure = failures.shift();
      if (failure) throw failure;
      return { producers: [] };
    };
    emit('reconnected', undefined);
    await expect.poll(() => calls.filter((c) => c.name === 'resume').length).toBe(2);
    expect(calls.filter((c) => c.name === 'joinRoom')).toHaveLength(10);
    expect(warn).not.toHaveBeenCalled();

    // A recovery whose first attempt meets a refusal says so once, however many attempts follow.
    failures.push(
      ...Array.from({ length: 3 }, () => new LiveRequestError('timeout', '미디어 서버가 응답하지 않아요.')),
    );
    emit('reconnected', undefined);
    await expect.poll(() => calls.filter((c) => c.name === 'joinRoom').length).toBe(14);
    await expect.poll(() => viewer.mediaState).toBe('connected');
    expect(warn).toHaveBeenCalledTimes(1);
    expect(warn.mock.calls[0]?.[0]).toBe('live: recovery failed, trying again');
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

  it('waits for the teacher after a lost connection (a media service killed and back): notLive is retried', async () => {
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
    // The connection is lost (no nodeStopped: a kill); the student is back before the teacher's room is.
    let notYet = 3;
    answers.joinRoom = () => {
      if (notYet-- > 0) throw new LiveRequestError('notLive', '지금은 라이브 중이 아니에요.');
      return { producers: [] };
    };
    emit('connectionLost', undefined);
    emit('reconnected', undefined);
    await expect.poll(() => viewer.mediaState).toBe('connected');
    expect(calls.filter((c) => c.name === 'joinRoom')).toHaveLength(5);
    expect(ended).toBe(0);
    expect(states).toEqual(['connected', 'connecting', 'connected']);
    viewer.close();
  });
});
