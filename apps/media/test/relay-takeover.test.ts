// One class across two media nodes (relay-nodes.ts): the origin killed, the teacher takes the class over.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { RECORDING_MANIFEST, RecordingEventSchema } from '@sea/contract/recording';
import type { ConsumerInfo } from '@sea/contract/live';
import type { Socket } from 'socket.io-client';
import { hasFfprobe, probe } from './ffprobe.ts';
import { relayNodes } from './relay-nodes.ts';
import { consumerOf, negotiate, resumeAll } from './synthetic-class.ts';
import type { SyntheticStudent } from './synthetic-student.ts';
import { collect, delay, startTestMedia, until } from './test-media-server.ts';

const relay = relayNodes();

/**
 * Once the new origin's four streams are announced to the student (`added`; `streams` names the wait), the
 * student renegotiates as the web client does on newProducer, and the webcam comes again (`webcam`).
 */
async function webcamAgain(
  { socket, student, transportId }: { socket: Socket; student: SyntheticStudent; transportId: string },
  added: unknown[],
  streams: string,
  webcam: string,
): Promise<void> {
  await until(() => added.length === 4, 5_000, streams);
  const consumers = await negotiate(socket, student, transportId);
  await resumeAll(socket, consumers);
  const { mid } = consumerOf(consumers, 'webcamVideo');
  const before = student.packets(mid).length;
  await until(() => student.packets(mid).length > before + 10, 8_000, webcam);
}

describe('one class across two nodes (relay)', () => {
  it('the origin killed, the teacher starting on the edge takes its room over: its students stay and get the new streams', async () => {
    const { origin, edge, publish, watchOnEdge } = relay;
    await publish(origin);
    const { socket, student, transportId } = await watchOnEdge(1);
    const added: unknown[] = [];
    socket.on('newProducer', (info: unknown) => added.push(info));
    await origin.kill(); // as a crash: no teacherLeft, the connections just drop
    await delay(300);
    expect(socket.connected).toBe(true);
    expect(edge.server.room(7)?.studentCount).toBe(1);
    const openedBefore = edge.reports.opened;
    const states = collect<{ recording: boolean }>(socket, 'recordingState');
    const takenOverAt = Date.now();
    const { socket: host } = await publish(edge);
    expect(edge.server.isEdge(7)).toBe(false);
    expect(edge.reports.opened).toBeGreaterThan(openedBefore);
    // Reported as this node's own room now, starting at the takeover, recorded like any, and taken over: the
    // API server goes on with the origin's session in it.
    expect(
      edge.server.roomReports().map((room) => [room.classId, room.students, room.recording, room.takenOver]),
    ).toEqual([[7, ['student-1'], true, true]]);
    const room = edge.server.room(7);
    expect(room?.startedAt.getTime()).toBeGreaterThanOrEqual(takenOverAt);
    expect(states.at(-1)).toEqual({ recording: true, paused: false });
    // The student renegotiates as the web client does on newProducer, and gets the new teacher's webcam.
    await webcamAgain(
      { socket, student, transportId },
      added,
      'the four new streams',
      'webcam from the new origin',
    );
    expect(socket.connected).toBe(true);

    // The taken-over session's recording: every stream the new teacher published, from the takeover on.
    await delay(1_500);
    host.disconnect();
    await until(() => edge.server.roomCount === 0, 3_000, 'the room closed');
    await room?.recordingClosed();
    const events = fs
      .readFileSync(path.join(edge.recordingsDir, room?.sessionKey ?? '', RECORDING_MANIFEST), 'utf8')
      .split('\n')
      .filter((line) => line !== '')
      .map((line) => RecordingEventSchema.parse(JSON.parse(line)));
    expect(events[0]).toMatchObject({ type: 'session', sessionKey: room?.sessionKey, classId: 7 });
    const tracks = events.flatMap((event) => (event.type === 'track' ? [event] : []));
    expect(new Set(tracks.map((track) => track.kind))).toEqual(
      new Set(['webcamVideo', 'webcamAudio', 'screenShareVideo', 'screenShareAudio']),
    );
    expect(events.at(-1)?.type).toBe('end');
    for (const track of tracks) {
      const file = path.join(edge.recordingsDir, room?.sessionKey ?? '', track.file);
      expect(fs.statSync(file).size, `${track.file} holds media`).toBeGreaterThan(1_000);
      if (track.kind === 'webcamVideo' && (await hasFfprobe())) {
        const read = await probe(file);
        expect(read.keyframeFirst && read.packets > 10, `${track.file} readable from a keyframe`).toBe(true);
      }
    }
  });

  it('the origin killed and taken over at one edge: another edge follows the new origin, its students stay', async () => {
    const { origin, edge, publish, watchOn, watchOnEdge, closers } = relay;
    // Node C finds the class's origin as the registry would tell it: node B once the teacher is there.
    const third = await startTestMedia({
      nodeId: 'node-c',
      teacherGraceMs: 5_000,
      findOrigin: async (classId) => (edge.server.classes().origins.includes(classId) ? edge.url : null),
    });
    closers.push(() => third.close());
    await publish(origin);
    await watchOnEdge(1);
    const { socket, student, transportId } = await watchOn(third, 2, origin.url);
    const added = collect<ConsumerInfo>(socket, 'newProducer');
    const room = third.server.room(7);
    await origin.kill();
    await delay(300);
    const takeover = performance.now();
    await publish(edge);
    await webcamAgain(
      { socket, student, transportId },
      added,
      'the four streams of the new origin on node C',
      'webcam through the new origin',
    );
    console.info(
      `relay: after the takeover, node C's student got the webcam again ${(performance.now() - takeover).toFixed(0)} ms after the teacher's startRoom on node B`,
    );
    // The same room and connection on C, now pulled from B.
    expect(socket.connected).toBe(true);
    expect(third.server.room(7)).toBe(room);
    expect(third.server.isEdge(7)).toBe(true);
  });
});
