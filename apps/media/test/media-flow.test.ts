import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { Layer } from '@sea/contract/live';
import {
  consumerOf,
  expectSwitched,
  joinStudent,
  layersOf,
  negotiate,
  publishTeacher,
  resumeAll,
  type Closers,
} from './synthetic-class.ts';
import type { Received } from './synthetic-student.ts';
import { collect, delay, ok, startTestMedia, until } from './test-media-server.ts';

type Media = Awaited<ReturnType<typeof startTestMedia>>;
let media: Media;
const closers: Closers = [];

const publish = (options: { screen?: boolean } = {}) => publishTeacher(media, closers, options);

async function watch(n: number) {
  const { socket, student, transportId } = await joinStudent(media, closers, n);
  const consumers = await negotiate(socket, student, transportId);
  return { socket, student, transportId, consumers };
}

function expectContinuous(packets: Received[]) {
  for (let i = 1; i < packets.length; i += 1) {
    const prev = packets[i - 1];
    const next = packets[i];
    if (!prev || !next) continue;
    expect(((next.seq - prev.seq) & 0xffff) < 3, `sequence jump ${prev.seq} -> ${next.seq}`).toBe(true);
    // Each layer numbers its own frames; the student must see one numbering (Chrome stalls on a jump).
    const ids = `picture id ${prev.pictureId} -> ${next.pictureId}`;
    expect(((Number(next.pictureId) - Number(prev.pictureId)) & 0x7fff) < 3, ids).toBe(true);
    const tl0s = `TL0PICIDX ${prev.tl0} -> ${next.tl0}`;
    expect(((Number(next.tl0) - Number(prev.tl0)) & 0xff) < 2, tl0s).toBe(true);
  }
}

// Students' connections in the main thread, and in forwarding workers as `npm start` runs them.
describe.each([
  { where: 'in the main thread', workers: 0 },
  { where: 'in two forwarding workers', workers: 2 },
])('forwarding through werift on loopback, $where', ({ workers }) => {
  beforeEach(async () => {
    media = await startTestMedia({ workers });
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await media.close();
  });

  it('answers the teacher without transport-cc, with NACK and simulcast, and sends REMB that allows all layers', async () => {
    const { answer, teacher } = await publish();
    expect(answer).not.toMatch(/transport-cc|transport-wide-cc/);
    expect(answer).toMatch(/a=rtcp-fb:\d+ nack\r\n/);
    expect(answer).toMatch(/a=rtcp-fb:\d+ nack pli\r\n/);
    expect(answer).toMatch(/a=simulcast:recv q;h;f/);
    // Lite, said where browsers read it: once, before the first media section.
    const lines = answer.split(/\r?\n/);
    expect(lines.filter((line) => line === 'a=ice-lite')).toHaveLength(1);
    expect(lines.indexOf('a=ice-lite')).toBeLessThan(lines.findIndex((line) => line.startsWith('m=')));
    expect(answer).toMatch(/a=candidate:.* 127\.0\.0\.1 \d+ typ host/);
    expect(answer).not.toMatch(/a=candidate:(?!.* 127\.0\.0\.1 )/);
    await until(() => teacher.rembs.length >= 2, 3_000, 'REMB');
    expect(Math.min(...teacher.rembs)).toBeGreaterThan(1_300_000);
  });

  it('a student gets video from a keyframe on one layer, continuous, with their own header extensions, and audio', async () => {
    const { teacher } = await publish();
    await delay(300);
    const { socket, student, consumers } = await watch(1);
    expect(consumers.map((c) => c.producerKind).sort()).toEqual(['webcamAudio', 'webcamVideo']);
    await delay(300);
    expect(student.packets(consumerOf(consumers, 'webcamVideo').mid)).toEqual([]); // paused until resume
    const resumedAt = performance.now();
    await resumeAll(socket, consumers);
    const video = () => student.packets(consumerOf(consumers, 'webcamVideo').mid);
    await until(() => video().length > 30, 5_000, 'video packets');
    const [first] = video();
    expect(first?.keyframeStart).toBe(true);
    expect((first?.at ?? Infinity) - resumedAt).toBeLessThan(1_000);
    expect(layersOf(video())).toEqual(['h']); // auto starts at h
    expectContinuous(video());
    const negotiated = student.pc.getTransceivers().flatMap((t) => t.headerExtensions.map((e) => e.id));
    for (const packet of video()) for (const id of packet.extensionIds) expect(negotiated).toContain(id);
    expect(teacher.plis.some((p) => p.ssrc === teacher.ssrcOf('h'))).toBe(true);
    await until(() => student.packets(consumerOf(consumers, 'webcamAudio').mid).length > 10, 3_000, 'audio');
  });

  it('a joining student sees the keyframe the SFU holds at once, then goes on from the fresh one', async () => {
    const { teacher } = await publish();
    await delay(300); // the teacher's first keyframes are through
    teacher.answerPlis = false;
    const { socket, student, consumers } = await watch(1);
    const resumedAt = performance.now();
    await resumeAll(socket, consumers);
    const video = () => student.packets(consumerOf(consumers, 'webcamVideo').mid);
    // The synthetic teacher's keyframes take 3 packets; nothing else comes without a fresh one.
    await until(() => video().length >= 3, 2_000, 'the held keyframe');
    const [held] = video();
    expect(held?.keyframeStart).toBe(true);
    expect((held?.at ?? Infinity) - resumedAt).toBeLessThan(1_000);
    await delay(400);
    expect(video()).toHaveLength(3);
    expect(teacher.plis.some((p) => p.ssrc === teacher.ssrcOf('h'))).toBe(true);

    teacher.answerPlis = true; // the repeated request now brings the fresh keyframe
    await until(() => video().length > 20, 5_000, 'live video');
    const fresh = video()[3];
    expect(fresh?.keyframeStart).toBe(true);
    expect(fresh?.frame).toBeGreaterThan(held?.frame ?? Infinity);
    expect(((fresh?.seq ?? 0) - (held?.seq ?? 0)) & 0xffff).toBe(3);
    expect(fresh?.pictureId).toBe(((held?.pictureId ?? 0) + 1) & 0x7fff);
    // The timestamp advances by the time between the two (90 kHz), not by the age of the held picture.
    const step = ((fresh?.timestamp ?? 0) - (held?.timestamp ?? 0)) >>> 0;
    const waitedMs = (fresh?.at ?? 0) - (held?.at ?? 0);
    expect(step).toBeGreaterThan(0);
    expect(step).toBeLessThan((waitedMs + 200) * 90);
    expectContinuous(video());
  });

  it('switches layers only at a keyframe of the new layer, with continuous sequence numbers', async () => {
    await publish();
    const { socket, student, consumers } = await watch(1);
    await resumeAll(socket, consumers);
    const { consumerId, mid } = consumerOf(consumers, 'webcamVideo');
    const video = () => student.packets(mid);
    await until(() => video().length > 10, 5_000, 'video');
    for (const layer of ['q', 'f', 'h'] as Layer[]) {
      await ok(socket, 'setPreferredLayer', { consumerId, layer });
      await until(() => video().at(-1)?.layer === layer, 5_000, `layer ${layer}`);
      // The switch just asked for is the last change of layer (the student may have started on another one).
      const index = expectSwitched(video(), layer);
      const switched = video()[index];
      const before = video()[index - 1];
      expect(switched?.tl0, 'so does TL0PICIDX').toBe(((before?.tl0 ?? 0) + 1) & 0xff);
      const step = ((switched?.timestamp ?? 0) - (before?.timestamp ?? 0)) >>> 0;
      expect(step).toBeGreaterThan(0);
      expect(step).toBeLessThan(90_000);
      await delay(200);
      expect(layersOf(video().slice(index))).toEqual([layer]);
    }
    expectContinuous(video());
  });

  it('a student on auto moves down a layer on its own receiver reports of loss, and back up once it ends', async () => {
    await publish({ screen: true }); // the screen and both audio streams share the student's bandwidth
    const { socket, student, consumers } = await watch(1);
    expect(consumers).toHaveLength(4);
    await resumeAll(socket, consumers);
    const video = () => student.packets(consumerOf(consumers, 'webcamVideo').mid);
    await until(() => video().length > 10, 5_000, 'video');
    expect(video().at(-1)?.layer).not.toBe('q');
    // A third of what reaches the student is lost: werift's receiver reports say so, and the SFU backs off.
    student.loseIncoming((seq) => seq % 3 === 0);
    await until(() => video().at(-1)?.layer === 'q', 15_000, 'down to q');
    const lowAt = video().length;
    student.loseIncoming(null);
    await until(
      () =>
        video()
          .slice(lowAt)
          .some((p) => p.layer === 'h'),
      20_000,
      'back up to h',
    );
    // Up only once the loss is gone, and one layer at a time.
    expect(layersOf(video().slice(lowAt))).toEqual(['q', 'h']);
  });

  it('NACKs exactly the lost packets, per SSRC, and the student still gets them', async () => {
    const { teacher } = await publish();
    const lostOnH = new Set<number>();
    teacher.dropWhen((layer, seq) => {
      if (layer === 'h' && seq % 17 === 0) {
        lostOnH.add(seq);
        return true;
      }
      return false;
    });
    const { socket, student, consumers } = await watch(1);
    await resumeAll(socket, consumers);
    const video = () => student.packets(consumerOf(consumers, 'webcamVideo').mid);
    await until(() => video().length > 60, 8_000, 'video');
    await delay(300);
    expect(lostOnH.size).toBeGreaterThan(0);
    const nacked = teacher.nacks.flatMap((n) => n.lost);
    expect(new Set(teacher.nacks.map((n) => n.ssrc))).toEqual(new Set([teacher.ssrcOf('h')]));
    expect(
      nacked.filter((seq) => !lostOnH.has(seq)),
      `lost: ${[...lostOnH].join(',')}`,
    ).toEqual([]);
    // The keyframe the SFU held (3 packets) may come first, older than the live frames after it.
    const live = video().slice(video()[3]?.keyframeStart ? 3 : 0);
    const received = new Set(live.map((p) => p.frame));
    const frames = live.map((p) => p.frame ?? 0);
    const span = Math.max(...frames) - Math.min(...frames);
    expect(received.size).toBeGreaterThan(span * 0.95); // lost packets came back as retransmissions
  });

  it('coalesces keyframe requests of many students and forwards a student PLI to their layer', async () => {
    const { teacher } = await publish();
    await delay(200);
    const students = await Promise.all([1, 2, 3, 4].map((n) => watch(n)));
    const before = teacher.plis.length;
    await Promise.all(students.map((s) => resumeAll(s.socket, s.consumers)));
    await delay(400);
    // Four students waiting for the same layer: requests are merged, at most one per layer every 300 ms.
    const burst = teacher.plis.slice(before).filter((p) => p.ssrc === teacher.ssrcOf('h'));
    expect(burst.length).toBeGreaterThanOrEqual(1);
    expect(burst.length).toBeLessThan(students.length);
    for (let i = 1; i < burst.length; i += 1) {
      expect((burst[i]?.at ?? 0) - (burst[i - 1]?.at ?? 0)).toBeGreaterThan(250);
    }
    for (const s of students) {
      await until(
        () => s.student.packets(consumerOf(s.consumers, 'webcamVideo').mid).length > 0,
        5_000,
        'video',
      );
    }
    const [one] = students;
    if (!one) throw new Error('no student');
    const { consumerId, mid } = consumerOf(one.consumers, 'webcamVideo');
    await ok(one.socket, 'setPreferredLayer', { consumerId, layer: 'q' });
    await until(() => one.student.packets(mid).at(-1)?.layer === 'q', 5_000, 'layer q');
    await delay(400);
    const count = teacher.plis.length;
    await one.student.sendPli(mid);
    await until(() => teacher.plis.length > count, 2_000, 'forwarded PLI');
    expect(teacher.plis.slice(count).map((p) => p.ssrc)).toContain(teacher.ssrcOf('q'));
  });

  it('streams stop and start again without a reload: producerClosed, newProducer, renegotiation', async () => {
    const { socket: host, teacher, transportId: producerTransport } = await publish();
    const { socket, student, transportId, consumers } = await watch(1);
    const closed = collect<{ producerKind: string }>(socket, 'producerClosed');
    const added = collect<{ producerKind: string }>(socket, 'newProducer');
    await resumeAll(socket, consumers);
    const { mid } = consumerOf(consumers, 'webcamVideo');
    await until(() => student.packets(mid).length > 5, 5_000, 'video');
    await ok(host, 'closeProducer', { producerKind: 'webcamVideo' });
    await until(() => closed.length === 1, 2_000, 'producerClosed');
    expect(closed[0]?.producerKind).toBe('webcamVideo');
    const afterClose = await negotiate(socket, student, transportId);
    expect(afterClose.map((c) => c.producerKind)).toEqual(['webcamAudio']);
    expect((await ok(socket, 'getProducers')).producers.map((p) => p.producerKind)).toEqual(['webcamAudio']);

    // The webcam comes back as a new encoder, numbering its frames anew.
    const last = student.packets(mid).at(-1);
    const count = student.packets(mid).length;
    teacher.restartVideo();
    await ok(host, 'produce', {
      transportId: producerTransport,
      producerKind: 'webcamVideo',
      mid: teacher.video.mid ?? '',
    });
    await until(() => added.length === 1, 2_000, 'newProducer');
    const again = await negotiate(socket, student, transportId);
    const video = consumerOf(again, 'webcamVideo');
    expect(video.mid, "the old webcam's m-line is used again").toBe(mid);
    await ok(socket, 'resume', { consumerId: video.consumerId });
    await until(() => student.packets(mid).length > count + 5, 5_000, 'video again');
    const first = student.packets(mid)[count];
    expect(first?.keyframeStart).toBe(true);
    // One RTP stream for the student's browser: sequence, picture ids and TL0PICIDX go on from the last packet
    // of the old stream (a jump back froze Chrome), and the timestamp advances by the time between them.
    expect(first?.ssrc).toBe(last?.ssrc);
    expect(((first?.seq ?? 0) - (last?.seq ?? 0)) & 0xffff).toBe(1);
    expect(first?.pictureId).toBe(((last?.pictureId ?? 0) + 1) & 0x7fff);
    expect(first?.tl0).toBe(((last?.tl0 ?? 0) + 1) & 0xff);
    const stepMs = (((first?.timestamp ?? 0) - (last?.timestamp ?? 0)) >>> 0) / 90;
    expect(Math.abs(stepMs - ((first?.at ?? 0) - (last?.at ?? 0)))).toBeLessThan(100);
    expectContinuous(student.packets(mid).slice(count));
  });
});
