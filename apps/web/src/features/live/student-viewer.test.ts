import { describe, expect, it } from 'vitest';
import { LiveRequestError } from './signalling-client.ts';
import { StudentViewer } from './student-viewer.ts';
import { CONSUME_TWO_TRACKS } from './test/fake-signalling.ts';
import {
  consumer,
  fakePeerConnection,
  flush,
  heldAnswer,
  lastResume,
  viewerSignalling,
} from './test/viewer-fixtures.ts';

describe('StudentViewer', () => {
  it('joins, resumes every consumer while it answers the offer, and announces its track', async () => {
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
    // The new streams are resumed beside the answer, not after it: the picture starts as the connection does.
    expect(calls.map((c) => c.name)).toEqual(['joinRoom', ...CONSUME_TWO_TRACKS]);
    expect(pc.remote).toEqual(['offer-0']);
    expect(added).toEqual(['webcamVideo:track-0', 'webcamAudio:track-1']);
  });

  it('announces a track as soon as its stream has started, before its answer is taken', async () => {
    const { signalling, calls, answers } = viewerSignalling([[consumer('webcamVideo', '0')]]);
    const taking = heldAnswer();
    answers.connectConsumerTransport = taking.answer;
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => fakePeerConnection(['0']) as unknown as RTCPeerConnection,
    });
    const added: string[] = [];
    viewer.on('trackAdded', ({ kind }) => added.push(kind));
    const joined = viewer.join();
    await expect.poll(() => calls.some((c) => c.name === 'connectConsumerTransport')).toBe(true);
    // The SFU starts the stream as the connection comes up: the page must already have the track to show it.
    expect(added).toEqual(['webcamVideo']);
    taking.release();
    await joined;
    expect(added).toEqual(['webcamVideo']);
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
    expect(lastResume(calls)).toEqual({ name: 'resume', payload: { consumerId: 'webcamVideo-2' } });
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
    const resuming = heldAnswer();
    answers.resume = resuming.answer;
    const viewer = new StudentViewer({
      signalling,
      createPeerConnection: () => fakePeerConnection(['0']) as unknown as RTCPeerConnection,
    });
    const joined = viewer.join();
    await expect.poll(() => calls.some((c) => c.name === 'resume')).toBe(true);
    // The student picks a quality while the new webcam stream is still being resumed.
    const chosen = viewer.setLayer('h');
    resuming.release();
    await Promise.all([joined, chosen]);
    expect(calls.at(-1)).toEqual({
      name: 'setPreferredLayer',
      payload: { consumerId: 'webcamVideo-1', layer: 'h' },
    });
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

  it('negotiates again when the teacher replaced a stream between consume and resume (nothing ends)', async () => {
    const { signalling, calls, answers } = viewerSignalling([
      [consumer('webcamVideo', '0'), consumer('webcamAudio', '1')],
      [consumer('webcamVideo', '0', 'webcamVideo-2'), consumer('webcamAudio', '1')],
    ]);
    answers.resume = (payload) => {
      if ((payload as { consumerId: string }).consumerId === 'webcamVideo-1')
        throw new LiveRequestError('notFound', '찾을 수 없어요.');
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
    expect(lastResume(calls)).toEqual({ name: 'resume', payload: { consumerId: 'webcamVideo-2' } });
    viewer.close();
  });
});
