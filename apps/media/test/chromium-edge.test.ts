import { describe, expect, it } from 'vitest';
import { chromiumChecked, runHarness, warnIfSkipped } from './chromium/harness-runner.ts';

warnIfSkipped('the Chromium edge-node test');

type EdgeStudent = {
  firstFrameMs: number | null;
  topLayerMs: number | null;
  webcamWidth: number;
  webcamFps: number;
  screenWidth: number;
  screenFrames: number;
  micPackets: number;
  systemAudioPackets: number;
};

describe.runIf(chromiumChecked)(
  'one class across two media nodes in Chromium (fake devices, loopback)',
  () => {
    it('a student on an edge node decodes every stream of the teacher, and is back on the origin within 5 s when the edge dies', () => {
      const result = runHarness('./run-edge-harness.ts', 180_000);
      expect(result.error).toBeUndefined();
      expect(result.published).toEqual([
        'webcamVideo',
        'webcamAudio',
        'screenShareVideo',
        'screenShareAudio',
      ]);
      const student = result.student as EdgeStudent;
      console.log(
        `edge student: first frame ${Math.round(student.firstFrameMs ?? -1)} ms after joining (the edge pulled ` +
          `the class for it), 1280 wide after ${Math.round(student.topLayerMs ?? -1)} ms, ${student.webcamFps} fps`,
      );
      expect(student.webcamWidth).toBe(1280);
      // The fake camera gives 30 fps; software codecs share two cores with the teacher's encoder.
      expect(student.webcamFps).toBeGreaterThanOrEqual(15);
      expect(student.screenWidth).toBe(1280);
      expect(student.screenFrames).toBeGreaterThan(0);
      expect(student.micPackets).toBeGreaterThan(20);
      expect(student.systemAudioPackets).toBeGreaterThan(20);
      expect(result.nodes).toEqual({ originStudents: 0, edgeStudents: 1, edgeIsEdge: true });
      // The edge killed mid-lecture: the student's client follows a fresh ticket (the harness plays the API
      // server's placement, which names the origin once the edge's registry entry is stale) and decodes the
      // webcam again on the origin within 5 s.
      const killed = result.edgeKilled as { backMs: number | null; originStudents: number | null };
      console.log(
        `edge killed: the student decoded the webcam again on the origin after ${Math.round(killed.backMs ?? -1)} ms`,
      );
      expect(killed.backMs).not.toBeNull();
      expect(killed.backMs).toBeLessThan(5_000);
      expect(killed.originStudents).toBe(1);
      // Then the teacher leaves: the student hears the end once.
      expect(result.afterLeave).toEqual({ ended: 1, edgeRooms: 0 });
    }, 240_000);
  },
);
