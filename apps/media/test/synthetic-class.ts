import type { Socket } from 'socket.io-client';
import { expect } from 'vitest';
import type { ConsumerInfo, Layer, StreamKind } from '@sea/contract/live';
import { SyntheticStudent, type Received } from './synthetic-student.ts';
import { SyntheticTeacher } from './synthetic-teacher.ts';
import { ok, type Claims, type startTestMedia } from './test-media-server.ts';

// A class of synthetic clients on a test media node: the teacher publishing, light students receiving. What
// they open goes into the test's `closers`, closed at its end.

type Media = Awaited<ReturnType<typeof startTestMedia>>;
/** What a test opened, closed at its end. */
export type Closers = (() => Promise<void>)[];

/**
 * A synthetic teacher (a keyframe every second) starts the room on `media` and publishes the webcam's video
 * and audio, and with `screen` the screen and the system audio too, at 30 frames a second.
 */
export async function publishTeacher(media: Media, closers: Closers, { screen = false } = {}) {
  const socket = await media.connectAs({ role: 'teacher' });
  const teacher = new SyntheticTeacher(1_000, { screen });
  closers.push(() => teacher.close());
  await ok(socket, 'startRoom');
  const { transportId } = await ok(socket, 'createProducerTransport');
  const { sdp } = await ok(socket, 'connectProducerTransport', { transportId, sdp: await teacher.offer() });
  await teacher.accept(sdp);
  teacher.start(30);
  const produce = (producerKind: StreamKind, mid: string | null | undefined) =>
    ok(socket, 'produce', { transportId, producerKind, mid: mid ?? '' });
  const video = await produce('webcamVideo', teacher.video.mid);
  const audio = await produce('webcamAudio', teacher.audio.mid);
  if (teacher.screen && teacher.systemAudio) {
    await produce('screenShareVideo', teacher.screen.mid);
    await produce('screenShareAudio', teacher.systemAudio.mid);
  }
  return { socket, teacher, transportId, answer: sdp, video, audio };
}

/** Student `student-n` joins the room on `media` (its ticket naming `origin`, if any) and makes a transport. */
export async function joinStudent(media: Media, closers: Closers, n: number, origin?: string) {
  const claims: Claims = {
    role: 'student',
    sub: `student-${n}`,
    ...(origin ? { origin } : {}),
  };
  const socket = await media.connectAs(claims);
  const student = new SyntheticStudent();
  closers.push(() => student.close());
  await ok(socket, 'joinRoom');
  const { transportId } = await ok(socket, 'createConsumerTransport');
  return { socket, student, transportId };
}

/** `consume` and the student's answer: the consumers, paused until resumed. */
export async function negotiate(
  socket: Socket,
  student: SyntheticStudent,
  transportId: string,
): Promise<ConsumerInfo[]> {
  const offer = await ok(socket, 'consume', { transportId });
  await ok(socket, 'connectConsumerTransport', { transportId, sdp: await student.answer(offer.sdp) });
  return offer.consumers;
}

export async function resumeAll(socket: Socket, consumers: ConsumerInfo[]): Promise<void> {
  for (const c of consumers) await ok(socket, 'resume', { consumerId: c.consumerId });
}

/** The consumer of a kind of stream. */
export function consumerOf(consumers: ConsumerInfo[], kind: string): ConsumerInfo {
  const consumer = consumers.find((c) => c.producerKind === kind);
  if (!consumer) throw new Error(`no ${kind} consumer`);
  return consumer;
}

/** The webcam layers of the packets, in the order they first came. */
export const layersOf = (packets: Received[]) => [...new Set(packets.map((p) => p.layer))];

/**
 * Where `video` last switched to `layer` (its index), checking that the switch came at a keyframe of the
 * layer and that the sequence numbers and picture ids went on from the last packet sent.
 */
export function expectSwitched(video: Received[], layer: Layer): number {
  const index = video.findLastIndex((p, i) => i > 0 && p.layer === layer && video[i - 1]?.layer !== layer);
  const switched = video[index];
  const before = video[index - 1];
  expect(switched?.keyframeStart, `first ${layer} packet is a keyframe start`).toBe(true);
  expect(((switched?.seq ?? 0) - (before?.seq ?? 0)) & 0xffff).toBe(1);
  expect(switched?.pictureId, 'the picture id goes on from the last one sent').toBe(
    ((before?.pictureId ?? 0) + 1) & 0x7fff,
  );
  return index;
}
