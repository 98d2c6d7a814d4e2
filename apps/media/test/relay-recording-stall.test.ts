// The origin's recordings disk fills while a student watches on an edge node (relay-nodes.ts): the edge's
// students are told the recording stalled, as the origin's are, and told again when it resumes.
import { afterAll, describe, expect, it } from 'vitest';
import type { RecordingState } from '@sea/contract/live';
import { relayNodes } from './relay-nodes.ts';
import { skipNotice } from './skip-notice.ts';
import { canMount, smallDisk } from './small-disk.ts';
import { collect, until } from './test-media-server.ts';

if (!canMount && process.env.CI === 'true')
  throw new Error('relay-recording-stall.test.ts must run as root when CI=true');
if (!canMount) skipNotice('relay-recording-stall.test.ts: SKIPPED, mounting a small disk needs root');

const disk = canMount ? smallDisk(48) : null;
afterAll(() => disk?.close());
const relay = relayNodes({ originRecordingsDir: () => disk?.dir ?? '' });

describe.skipIf(!canMount)("the origin's recording stalls under an edge's students", () => {
  it("an edge student hears the origin's stall within 2 s, and its end once the disk has room", async () => {
    const { origin, edge, publish, watchOnEdge } = relay;
    if (!disk) throw new Error('no disk');
    const { socket: host } = await publish(origin);
    const teacherStates = collect<RecordingState>(host, 'recordingState');
    const { socket } = await watchOnEdge(1);
    const states = collect<RecordingState>(socket, 'recordingState');
    await until(
      () => edge.server.room(7)?.recordingState.recording === true,
      3_000,
      "the edge room knows the origin's recording",
    );
    expect(states.some((state) => state.stalled)).toBe(false);

    disk.fill();
    const full = Date.now();
    await until(() => states.at(-1)?.stalled === true, 5_000, 'the stall, told on the edge');
    expect(Date.now() - full).toBeLessThan(2_000);
    expect(states.at(-1)).toEqual({ recording: true, paused: false, stalled: true });
    expect(teacherStates.at(-1)?.stalled).toBe(true);

    disk.free();
    await until(() => states.at(-1)?.stalled === undefined, 5_000, 'the resumption, told on the edge');
    expect(states.at(-1)).toEqual({ recording: true, paused: false });
    // The edge records nothing itself: the state is the origin's.
    expect(edge.server.room(7)?.recording).toBe(false);
  });
});
