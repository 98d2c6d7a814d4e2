// One class across two media nodes (relay-nodes.ts): the teacher's streams on the edge, its layers, its end.
import { describe, expect, it } from 'vitest';
import type { Layer } from '@sea/contract/live';
import type { Socket } from 'socket.io-client';
import { relayNodes } from './relay-nodes.ts';
import { consumerOf, expectSwitched, layersOf, negotiate } from './synthetic-class.ts';
import { collect, delay, disconnected, ok, until } from './test-media-server.ts';

const relay = relayNodes();

describe('one class across two nodes (relay)', () => {
  it('a student on the edge receives webcam, screen and both audio streams, pulled from the origin once', async () => {
    const { origin, edge, publish, watchOnEdge } = relay;
    const { teacher, socket: host } = await publish(origin);
    const counts = collect<{ count: number }>(host, 'viewerCount');
    const lists = collect<{ students: { userId: string }[] }>(host, 'participants');
    const first = await watchOnEdge(1);
    const second = await watchOnEdge(2);
    for (const { student, consumers } of [first, second]) {
      for (const kind of ['webcamVideo', 'webcamAudio', 'screenShareVideo', 'screenShareAudio']) {
        await until(() => student.packets(consumerOf(consumers, kind).mid).length > 10, 10_000, kind);
      }
      const video = student.packets(consumerOf(consumers, 'webcamVideo').mid);
      expect(video.find((p) => p.layer !== null)?.keyframeStart, 'video starts at a keyframe').toBe(true);
    }
    // One pull for the class: the origin sees no student and one relay; the edge counts its own two.
    expect(origin.server.room(7)?.studentCount).toBe(0);
    expect(edge.server.room(7)?.studentCount).toBe(2);
    expect(edge.server.isEdge(7)).toBe(true);
    expect(edge.server.roomReports()).toEqual([]);
    // The edge's students are reported as the edge's (the API server puts them in the class's attendance).
    expect(edge.server.edgeReports()).toEqual([{ classId: 7, students: ['student-1', 'student-2'] }]);
    expect(origin.server.edgeReports()).toEqual([]);
    expect(origin.server.classes()).toEqual({ origins: [7], edges: [] });
    expect(edge.server.classes()).toEqual({ origins: [], edges: [7] });
    // The edge's keyframe requests crossed to the teacher.
    expect(teacher.plis.length).toBeGreaterThan(0);
    // The teacher's viewer count covers the edge's students; one leaving is counted out.
    await until(() => counts.at(-1)?.count === 2, 3_000, 'two viewers told to the teacher');
    second.socket.disconnect();
    await until(() => counts.at(-1)?.count === 1, 3_000, 'one viewer told to the teacher');
    // The teacher's participant list names the edge's students too, and follows them.
    await until(() => lists.at(-1)?.students.length === 1, 3_000, 'one participant told to the teacher');
    expect(lists.at(-1)?.students.map((one) => one.userId)).toEqual(['student-1']);
    expect(lists.some((list) => list.students.length === 2)).toBe(true);
  });

  it('every webcam layer crosses the relay: a student on the edge switches layers at keyframes', async () => {
    const { origin, publish, watchOnEdge } = relay;
    await publish(origin);
    const { socket, student, consumers } = await watchOnEdge(1);
    const { consumerId, mid } = consumerOf(consumers, 'webcamVideo');
    const video = () => student.packets(mid);
    await until(() => video().length > 10, 10_000, 'video');
    for (const layer of ['q', 'f', 'h'] as Layer[]) {
      await ok(socket, 'setPreferredLayer', { consumerId, layer });
      await until(() => video().at(-1)?.layer === layer, 8_000, `layer ${layer}`);
      const index = expectSwitched(video(), layer);
      await delay(200);
      expect(layersOf(video().slice(index))).toEqual([layer]);
    }
  });

  it("an edge's students hear the origin's recording state: recorded, paused, resumed", async () => {
    const { origin, edge, publish, watchOnEdge } = relay;
    const { socket: host } = await publish(origin);
    const { socket } = await watchOnEdge(1);
    const states = collect<{ recording: boolean; paused: boolean }>(socket, 'recordingState');
    await until(
      () => edge.server.room(7)?.recordingState.recording === true,
      3_000,
      "the edge room knows the origin's recording",
    );
    await ok(host, 'setRecording', { recording: false });
    await until(() => states.at(-1)?.paused === true, 3_000, 'paused, told on the edge');
    await ok(host, 'setRecording', { recording: true });
    await until(() => states.at(-1)?.paused === false, 3_000, 'resumed, told on the edge');
    expect(states.at(-1)).toEqual({ recording: true, paused: false });
    // The edge still records nothing itself, and is no session of its own.
    expect(edge.server.room(7)?.recording).toBe(false);
    expect(edge.server.roomReports()).toEqual([]);
  });

  it("the origin's room ending ends the edge's: its students hear teacherLeft once and are disconnected", async () => {
    const { origin, edge, publish, watchOnEdge } = relay;
    const { socket: host } = await publish(origin);
    const { socket } = await watchOnEdge(1);
    const left: unknown[] = [];
    socket.on('teacherLeft', (payload: unknown) => left.push(payload));
    const gone = disconnected(socket as Socket);
    host.disconnect();
    expect(await gone).toBe('io server disconnect');
    expect(left).toHaveLength(1);
    await until(() => edge.server.roomCount === 0, 3_000, 'the edge room closed');
    expect(edge.server.classes()).toEqual({ origins: [], edges: [] });
  });

  it('the relay adds little delay: the same frames reach an edge student a few ms after an origin student', async () => {
    const { origin, publish, watchOn, watchOnEdge } = relay;
    await publish(origin);
    const near = await watchOn(origin, 1);
    const far = await watchOnEdge(2);
    for (const { socket, consumers } of [near, far]) {
      await ok(socket, 'setPreferredLayer', {
        consumerId: consumerOf(consumers, 'webcamVideo').consumerId,
        layer: 'h',
      });
    }
    const frames = (watcher: typeof near) => {
      const firstAt = new Map<number, number>();
      for (const p of watcher.student.packets(consumerOf(watcher.consumers, 'webcamVideo').mid)) {
        if (p.layer === 'h' && p.frame !== null && !firstAt.has(p.frame)) firstAt.set(p.frame, p.at);
      }
      return firstAt;
    };
    await until(() => frames(far).size > 60, 10_000, 'two seconds of h on the edge');
    const nearFrames = frames(near);
    const delays = [...frames(far)]
      .filter(([frame]) => nearFrames.has(frame))
      .map(([frame, at]) => at - (nearFrames.get(frame) ?? at))
      .sort((a, b) => a - b);
    expect(delays.length).toBeGreaterThan(30);
    const median = delays[Math.floor(delays.length / 2)] ?? Infinity;
    const p95 = delays[Math.floor(delays.length * 0.95)] ?? Infinity;
    console.log(
      `relay: an edge student gets a frame ${median.toFixed(1)} ms (median; p95 ${p95.toFixed(1)} ms) after an origin student, ${delays.length} frames`,
    );
    // Generous for a shared 2-core machine; a relay that buffers or waits for retransmissions would exceed it.
    expect(median).toBeLessThan(50);
  });

  it('the teacher switching the webcam off and on at the origin: edge students follow without a reload', async () => {
    const { origin, publish, watchOnEdge } = relay;
    const { socket: host, teacher, transportId: producerTransport } = await publish(origin);
    const { socket, student, transportId, consumers } = await watchOnEdge(1);
    const closed = collect<{ producerKind: string }>(socket, 'producerClosed');
    const added = collect<{ producerKind: string }>(socket, 'newProducer');
    const { mid } = consumerOf(consumers, 'webcamVideo');
    await until(() => student.packets(mid).length > 5, 8_000, 'video');
    await ok(host, 'closeProducer', { producerKind: 'webcamVideo' });
    await until(
      () => closed.some((c) => c.producerKind === 'webcamVideo'),
      5_000,
      'producerClosed on the edge',
    );
    teacher.restartVideo();
    await ok(host, 'produce', {
      transportId: producerTransport,
      producerKind: 'webcamVideo',
      mid: teacher.video.mid ?? '',
    });
    await until(() => added.some((c) => c.producerKind === 'webcamVideo'), 5_000, 'newProducer on the edge');
    const video = consumerOf(await negotiate(socket, student, transportId), 'webcamVideo');
    // Counted before the resume: the SFU may send the keyframe it holds before the answer arrives.
    const count = student.packets(video.mid).length;
    await ok(socket, 'resume', { consumerId: video.consumerId });
    await until(() => student.packets(video.mid).length > count + 10, 8_000, 'video again on the edge');
    expect(
      student
        .packets(video.mid)
        .slice(count)
        .find((p) => p.layer !== null)?.keyframeStart,
    ).toBe(true);
    // Audio went on untouched.
    const audio = consumerOf(consumers, 'webcamAudio').mid;
    const heard = student.packets(audio).length;
    await until(() => student.packets(audio).length > heard + 10, 3_000, 'audio');
  });
});
