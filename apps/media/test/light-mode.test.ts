import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  consumerOf,
  joinStudent,
  layersOf,
  negotiate,
  publishTeacher,
  type Closers,
} from './synthetic-class.ts';
import { delay, ok, request, startTestMedia, until } from './test-media-server.ts';

// '데이터 절약 모드' as the SFU sees it: the student fixes the webcam at `q` and pauses the screen share's video
// consumer while a material is on stage. Nothing of the screen share may reach the student then (not just go
// unshown), while the webcam's smallest layer and the audio go on; a resume brings the picture back at once.

type Media = Awaited<ReturnType<typeof startTestMedia>>;
let media: Media;
const closers: Closers = [];

describe.each([
  { where: 'in the main thread', workers: 0 },
  { where: 'in a forwarding worker', workers: 1 },
])('a paused consumer, $where', ({ workers }) => {
  beforeEach(async () => {
    media = await startTestMedia({ workers });
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await media.close();
  });

  it('sends no screen-share packets while paused, the webcam q layer and audio still flow, resume is at once', async () => {
    const { teacher } = await publishTeacher(media, closers, { screen: true });
    const { socket, student, transportId } = await joinStudent(media, closers, 1);
    const consumers = await negotiate(socket, student, transportId);
    const webcam = consumerOf(consumers, 'webcamVideo');
    const screen = consumerOf(consumers, 'screenShareVideo');
    const audio = consumerOf(consumers, 'webcamAudio');
    await ok(socket, 'setPreferredLayer', { consumerId: webcam.consumerId, layer: 'q' });
    for (const c of consumers) await ok(socket, 'resume', { consumerId: c.consumerId });
    const screenPackets = () => student.packets(screen.mid);
    await until(() => screenPackets().length > 20, 5_000, 'screen packets before the pause');

    await ok(socket, 'pause', { consumerId: screen.consumerId });
    await delay(300); // what was on the way when the pause was answered
    const screenAtPause = screenPackets().length;
    const webcamAtPause = student.packets(webcam.mid).length;
    const audioAtPause = student.packets(audio.mid).length;
    await delay(2_000);
    expect(screenPackets().length, 'screen-share packets while paused').toBe(screenAtPause);
    const webcamWhilePaused = student.packets(webcam.mid).slice(webcamAtPause);
    expect(webcamWhilePaused.length).toBeGreaterThan(30);
    expect(layersOf(webcamWhilePaused)).toEqual(['q']);
    expect(student.packets(audio.mid).length - audioAtPause).toBeGreaterThan(30);
    // Pausing twice changes nothing; an unknown consumer is a clear refusal.
    await ok(socket, 'pause', { consumerId: screen.consumerId });
    const unknown = await request(socket, 'pause', { consumerId: 'nobody' });
    expect('error' in unknown && unknown.error.code).toBe('notFound');

    // Resumed: the SFU asks the teacher for a keyframe at once (the synthetic teacher's own come 33 s apart).
    const last = screenPackets().at(-1);
    const plisBefore = teacher.plis.length;
    const resumedAt = performance.now();
    await ok(socket, 'resume', { consumerId: screen.consumerId });
    await until(() => screenPackets().length > screenAtPause + 5, 3_000, 'screen packets after the resume');
    const first = screenPackets()[screenAtPause];
    expect(first?.keyframeStart).toBe(true);
    expect((first?.at ?? Infinity) - resumedAt).toBeLessThan(1_000);
    expect(teacher.plis.slice(plisBefore).map((p) => p.ssrc)).toContain(teacher.screen?.sender.ssrc);
    // One RTP stream for the browser: the numbering goes on from the last packet before the pause.
    expect(first?.ssrc).toBe(last?.ssrc);
    expect(((first?.seq ?? 0) - (last?.seq ?? 0)) & 0xffff).toBe(1);
    expect(first?.pictureId).toBe(((last?.pictureId ?? 0) + 1) & 0x7fff);
  });
});
