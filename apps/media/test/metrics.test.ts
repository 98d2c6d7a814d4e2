import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import type { ConsumerInfo } from '@sea/contract/live';
import { ROUTES } from '@sea/contract/paths';
import { parsePrometheusText, type Sample, valueOf } from '../../server/test/prometheus-text.ts';
import { joinStudent, negotiate, publishTeacher, resumeAll, type Closers } from './synthetic-class.ts';
import type { SyntheticStudent } from './synthetic-student.ts';
import type { SyntheticTeacher } from './synthetic-teacher.ts';
import { delay, startTestMedia, until } from './test-media-server.ts';

type Media = Awaited<ReturnType<typeof startTestMedia>>;
let media: Media;
const closers: Closers = [];

async function scrape(headers: Record<string, string> = {}): Promise<Sample[]> {
  const response = await fetch(`${media.url}${ROUTES.metrics}`, { headers });
  expect(response.status).toBe(200);
  return parsePrometheusText(await response.text());
}

async function publish(): Promise<SyntheticTeacher> {
  return (await publishTeacher(media, closers)).teacher;
}

async function watch(n: number): Promise<{ student: SyntheticStudent; consumers: ConsumerInfo[] }> {
  const { socket, student, transportId } = await joinStudent(media, closers, n);
  const consumers = await negotiate(socket, student, transportId);
  await resumeAll(socket, consumers);
  return { student, consumers };
}

const received = (students: SyntheticStudent[]) =>
  students.flatMap((student) => [...student.byMid.values()].flat());

describe.each([
  { where: 'in the main thread', workers: 0 },
  { where: 'in a forwarding worker', workers: 1 },
])('media metrics, students $where', ({ workers }) => {
  beforeEach(async () => {
    media = await startTestMedia({ workers });
  });
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
    await media.close();
  });

  it('move by exactly the packets, bytes, NACKs and keyframe requests of real traffic', async () => {
    const before = await scrape();
    const moved = (after: Sample[], name: string) => valueOf(after, name) - valueOf(before, name);
    const teacher = await publish();
    // Lost on the way to the SFU, on a layer no student watches (so no student sees a gap): the SFU asks again.
    teacher.dropWhen((layer, seq) => layer === 'q' && seq % 20 === 0);
    const students = await Promise.all([watch(1), watch(2)]);
    for (const { student, consumers } of students) {
      for (const { mid, producerKind } of consumers) {
        const enough = producerKind === 'webcamVideo' ? 30 : 10;
        await until(() => student.packets(mid).length > enough, 10_000, `${producerKind} packets`);
      }
    }
    const live = await scrape();
    expect(valueOf(live, 'media_rooms')).toBe(1);
    expect(valueOf(live, 'media_students')).toBe(2);
    expect(valueOf(live, 'media_streams')).toBe(2);
    if (workers > 0) expect(live.some((s) => s.name === 'media_forwarding_worker_utilization')).toBe(true);
    await until(() => teacher.nacks.length > 0, 10_000, 'a NACK');

    teacher.stop();
    await delay(500); // what is on its way arrives
    const got = received(students.map(({ student }) => student));
    let after: Sample[] = [];
    await until(
      async () => {
        after = await scrape();
        return moved(after, 'media_keyframe_requests_total') === teacher.plis.length;
      },
      5_000,
      'the keyframe requests the teacher received',
    );
    expect(moved(after, 'media_forwarded_packets_total')).toBe(got.length);
    expect(moved(after, 'media_forwarded_bytes_total')).toBe(got.reduce((sum, p) => sum + p.bytes, 0));
    expect(moved(after, 'media_nacks_sent_total')).toBe(teacher.nacks.length);
    expect(moved(after, 'media_nacked_packets_total')).toBe(
      teacher.nacks.reduce((sum, nack) => sum + nack.lost.length, 0),
    );
    expect(moved(after, 'media_received_packets_total')).toBeGreaterThan(got.length / 2);
    expect(teacher.plis.length).toBeGreaterThan(0);
  });

  it('answers /metrics only to loopback callers that did not come through a proxy', async () => {
    const response = await fetch(`${media.url}${ROUTES.metrics}`, {
      headers: { 'x-forwarded-for': '127.0.0.1' },
    });
    expect(response.status).toBe(404);
    expect(await response.text()).not.toContain('media_rooms');
    const samples = await scrape();
    expect(valueOf(samples, 'media_rooms')).toBe(0);
    expect(samples.some((s) => s.name === 'process_cpu_seconds_total')).toBe(true);
  });
});
