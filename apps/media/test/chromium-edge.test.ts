import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';
const present = fs.existsSync(CHROMIUM);
const required = process.env.CI === 'true';
if (!present && !required) console.warn(`SKIPPED: the Chromium edge-node test needs ${CHROMIUM}`);

/** Whether this process may create a network namespace (root, or unprivileged namespaces allowed). */
const isolated = spawnSync('unshare', ['--net', 'true']).status === 0;

/** Runs the harness in its own loopback-only network namespace when this process may create one. */
function runHarness(): Record<string, unknown> {
  const script = fileURLToPath(new URL('./chromium/run-edge-harness.ts', import.meta.url));
  const node = process.execPath;
  const command = isolated ? 'unshare' : node;
  const args = isolated
    ? ['--net', 'sh', '-c', 'ip link set lo up && exec "$0" "$1"', node, script]
    : [script];
  const run = spawnSync(command, args, { encoding: 'utf8', timeout: 180_000, maxBuffer: 16 * 1024 * 1024 });
  const line = run.stdout.split('\n').find((l) => l.startsWith('HARNESS_RESULT '));
  if (!line) throw new Error(`harness printed no result:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(line.slice('HARNESS_RESULT '.length)) as Record<string, unknown>;
}

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

describe.runIf(present || required)(
  'one class across two media nodes in Chromium (fake devices, loopback)',
  () => {
    it('a student on an edge node decodes every stream of the teacher, and is back on the origin within 5 s when the edge dies', () => {
      const result = runHarness();
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
