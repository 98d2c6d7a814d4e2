import { describe, expect, it } from 'vitest';
import type { ConsumerInfo } from '@sea/contract/live';
import { StudentViewer } from './student-viewer.ts';
import { consumer, fakePeerConnection, flush, viewerSignalling } from './test/viewer-fixtures.ts';

/** The teacher's webcam, microphone and screen share, as one `consume` answers them. */
const CLASS: ConsumerInfo[] = [
  consumer('webcamVideo', '0'),
  consumer('webcamAudio', '1'),
  consumer('screenShareVideo', '2'),
];

function viewerOf(consumersPerConsume: ConsumerInfo[][] = [CLASS]) {
  const fake = viewerSignalling(consumersPerConsume);
  const viewer = new StudentViewer({
    signalling: fake.signalling,
    createPeerConnection: () => fakePeerConnection(['0', '1', '2']) as unknown as RTCPeerConnection,
  });
  /** The requests about consumers since `from`, as `name:consumerId[:layer]`. */
  const since = (from: number) =>
    fake.calls.slice(from).flatMap(({ name, payload }) => {
      if (!['resume', 'pause', 'setPreferredLayer'].includes(name)) return [];
      const { consumerId, layer } = payload as { consumerId: string; layer?: string };
      return [[name, consumerId, layer].filter(Boolean).join(':')];
    });
  return { ...fake, viewer, since };
}

describe("StudentViewer '데이터 절약 모드'", () => {
  it('joins with the webcam at q and the screen share left paused while a material is on stage', async () => {
    const { viewer, since } = viewerOf();
    const added: string[] = [];
    viewer.on('trackAdded', ({ kind }) => added.push(kind));
    await viewer.setDataSaving(true);
    await viewer.setMaterialOnStage(true);
    await viewer.join();
    // Each stream starts on its own (the webcam's layer first); none waits for another.
    expect(since(0)).toEqual([
      'setPreferredLayer:webcamVideo-1:q',
      'resume:webcamAudio-1',
      'resume:webcamVideo-1',
    ]);
    // The track is there for when the screen share is resumed; nothing is sent on it meanwhile.
    // Each announced as its stream started, in whatever order they did.
    expect(added.toSorted()).toEqual(['screenShareVideo', 'webcamAudio', 'webcamVideo']);
  });

  it('pauses the screen share on the SFU when a material comes on stage, resumes it when it goes', async () => {
    const { viewer, since, calls } = viewerOf();
    await viewer.setDataSaving(true);
    await viewer.join();
    // No material on stage: the screen share is the lecture's picture, received as usual.
    expect(since(0)).toContain('resume:screenShareVideo-1');
    let from = calls.length;
    await viewer.setMaterialOnStage(true);
    expect(since(from)).toEqual(['pause:screenShareVideo-1']);
    from = calls.length;
    await viewer.setMaterialOnStage(true); // the same stage again: nothing to do
    expect(since(from)).toEqual([]);
    await viewer.setMaterialOnStage(false);
    expect(since(from)).toEqual(['resume:screenShareVideo-1']);
  });

  it('turned off, brings back the chosen quality and the screen share', async () => {
    const { viewer, since, calls } = viewerOf();
    await viewer.setLayer('h');
    await viewer.setMaterialOnStage(true);
    await viewer.join();
    let from = calls.length;
    await viewer.setDataSaving(true);
    expect(since(from)).toEqual(['setPreferredLayer:webcamVideo-1:q', 'pause:screenShareVideo-1']);
    // A quality chosen meanwhile is kept for later; the webcam stays at q.
    from = calls.length;
    await viewer.setLayer('f');
    expect(since(from)).toEqual([]);
    await viewer.setDataSaving(false);
    expect(since(from)).toEqual(['setPreferredLayer:webcamVideo-1:f', 'resume:screenShareVideo-1']);
  });

  it("turned off with the quality on auto, gives the choice back to the SFU ('auto')", async () => {
    const { viewer, since, calls } = viewerOf();
    await viewer.join();
    await viewer.setDataSaving(true);
    const from = calls.length;
    await viewer.setDataSaving(false);
    expect(since(from)).toEqual(['setPreferredLayer:webcamVideo-1:auto']);
  });

  it('keeps a new screen-share stream paused too (the teacher shared again)', async () => {
    const { viewer, since, calls, emit } = viewerOf([
      CLASS,
      [consumer('webcamVideo', '0'), consumer('webcamAudio', '1'), consumer('screenShareVideo', '2', 's-2')],
    ]);
    await viewer.setDataSaving(true);
    await viewer.setMaterialOnStage(true);
    await viewer.join();
    const from = calls.length;
    emit('newProducer', { producerId: 'p-s-2', producerKind: 'screenShareVideo' });
    await flush();
    await flush();
    expect(calls.slice(from).map((c) => c.name)).toContain('consume');
    expect(since(from)).toEqual([]);
    await viewer.setMaterialOnStage(false);
    expect(since(from)).toEqual(['resume:s-2']);
  });
});
