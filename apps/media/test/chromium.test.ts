import { describe, expect, it } from 'vitest';
import { chromiumChecked, isolated, runHarness, warnIfSkipped } from './chromium/harness-runner.ts';

warnIfSkipped('the Chromium live-media test');

type Student = {
  layer: 'q' | 'h' | 'f';
  webcamWidth: number;
  webcamHeight: number;
  webcamFps: number;
  screenWidth: number;
  screenFrames: number;
  micPackets: number;
  systemAudioPackets: number;
};

describe.runIf(chromiumChecked)('a live class in Chromium through the SFU (fake devices, loopback)', () => {
  it('publishes four streams, serves each student its layer, switches, toggles and ends', () => {
    const result = runHarness('./run-harness.ts', 240_000);
    expect(result.error).toBeUndefined();
    expect(result.published).toEqual(['webcamVideo', 'webcamAudio', 'screenShareVideo', 'screenShareAudio']);

    const expected = { q: [320, 180], h: [640, 360], f: [1280, 720] } as const;
    for (const student of result.students as Student[]) {
      expect([student.webcamWidth, student.webcamHeight], `webcam of the ${student.layer} student`).toEqual(
        expected[student.layer],
      );
      // The fake camera gives 30 fps; software encoding of three layers and three decoders share two cores.
      expect(student.webcamFps, `webcam fps of the ${student.layer} student`).toBeGreaterThanOrEqual(15);
      expect(student.screenWidth).toBe(1280);
      expect(student.screenFrames).toBeGreaterThan(0);
      expect(student.micPackets).toBeGreaterThan(20);
      expect(student.systemAudioPackets).toBeGreaterThan(20);
    }

    const layerSwitch = result.layerSwitch as {
      switchedAfterMs: number | null;
      longestStallMs: number;
      finalWidth: number;
    };
    expect(layerSwitch.switchedAfterMs).not.toBeNull();
    expect(layerSwitch.finalWidth).toBe(1280);
    // No freeze: frames kept coming through the switch (sampled every 250 ms).
    expect(layerSwitch.longestStallMs, 'longest time without a new frame').toBeLessThanOrEqual(500);

    const toggle = result.webcamToggle as { events: string[][]; resumedMs: (number | null)[] };
    for (const events of toggle.events) {
      const removed = events.lastIndexOf('removed:webcamVideo');
      expect(removed).toBeGreaterThan(0);
      expect(events.slice(removed)).toContain('added:webcamVideo');
    }
    for (const ms of toggle.resumedMs)
      expect(ms, 'webcam decodes again after being switched on').not.toBeNull();

    // The network went away for 3 s and for 9 s: both sides were back within 5 s of its return (only
    // measurable in the harness's own network namespace, where the test may take loopback down).
    if (isolated) {
      const outages = result.outages as {
        downMs: number;
        teacherMs: number | null;
        studentMs: (number | null)[];
      }[];
      expect(outages.map((o) => o.downMs)).toEqual([3_000, 9_000]);
      for (const outage of outages) {
        expect(outage.teacherMs, `teacher back after the ${outage.downMs} ms outage`).not.toBeNull();
        expect(outage.teacherMs).toBeLessThan(5_000);
        for (const ms of outage.studentMs) {
          expect(ms, `student video back after the ${outage.downMs} ms outage`).not.toBeNull();
          expect(ms).toBeLessThan(5_000);
        }
      }
    } else {
      console.warn('SKIPPED: the network outage part needs its own network namespace (unshare --net)');
    }

    const afterLeave = result.afterLeave as { ended: number[]; closedRooms: number; rooms: number };
    expect(afterLeave.ended).toEqual([1, 1, 1]);
    expect(afterLeave.closedRooms).toBe(1);
    expect(afterLeave.rooms).toBe(0);
  }, 300_000);
});
