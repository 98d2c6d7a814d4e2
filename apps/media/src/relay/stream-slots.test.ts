import { describe, expect, it } from 'vitest';
import type { ConsumerInfo, SpeakingView } from '@sea/contract/live';
import { edgeSpeakingView, slotOf } from './stream-slots.ts';

const consumer = (producerKind: ConsumerInfo['producerKind'], producerId: string): ConsumerInfo => ({
  consumerId: `c-${producerId}`,
  producerId,
  producerKind,
  mid: '0',
});

describe('slotOf', () => {
  it.each([
    {
      what: "the webcam's layers share the kind's slot",
      a: consumer('webcamVideo', 'p.q'),
      b: consumer('webcamVideo', 'p.f'),
      same: true,
    },
    {
      what: 'the teacher’s audio has its kind’s slot',
      a: consumer('webcamAudio', 'x'),
      b: consumer('webcamAudio', 'y'),
      same: true,
    },
    {
      what: 'two speakers have a slot each',
      a: consumer('speakerAudio', 'x'),
      b: consumer('speakerAudio', 'y'),
      same: false,
    },
    {
      what: 'a speaker is not in a teacher kind’s slot',
      a: consumer('speakerAudio', 'webcamAudio'),
      b: consumer('webcamAudio', 'z'),
      same: false,
    },
  ])('$what', ({ a, b, same }) => {
    expect(slotOf(a) === slotOf(b)).toBe(same);
  });
});

describe('edgeSpeakingView', () => {
  const origin: SpeakingView = {
    speakers: [
      { userId: 'u1', nickname: '학생1', state: 'speaking', producerId: 'origin-1' },
      { userId: 'u2', nickname: '학생2', state: 'speaking', producerId: 'origin-2' },
      { userId: 'u3', nickname: '학생3', state: 'invited', producerId: null },
    ],
    self: 'none',
  };
  const edge = new Map([[slotOf(consumer('speakerAudio', 'origin-1')), 'edge-1']]);

  it("names the edge's producers, null for one not published on the edge yet or never", () => {
    expect(edgeSpeakingView(origin, (slot) => edge.get(slot) ?? null)).toEqual({
      speakers: [
        { userId: 'u1', nickname: '학생1', state: 'speaking', producerId: 'edge-1' },
        { userId: 'u2', nickname: '학생2', state: 'speaking', producerId: null },
        { userId: 'u3', nickname: '학생3', state: 'invited', producerId: null },
      ],
      self: 'none',
    });
  });

  it('is nobody’s own view on an edge', () => {
    expect(edgeSpeakingView({ speakers: [], self: 'speaking' }, () => null)).toEqual({
      speakers: [],
      self: 'none',
    });
  });
});
