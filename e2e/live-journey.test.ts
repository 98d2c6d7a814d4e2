import { spawnSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from './harness/chromium.ts';
import { buildWebOnce } from './harness/web-build.ts';

/** Whether this process may create a network namespace (root, or unprivileged namespaces allowed). */
const isolated = spawnSync('unshare', ['--net', 'true']).status === 0;
if (!isolated) {
  if (process.env.CI === 'true') throw new Error('CI=true but `unshare --net` is not allowed here');
  console.warn('\n!!! SKIPPING the live journey: it needs its own network namespace (unshare --net) !!!\n');
}

/**
 * Runs `live/run-live-journey.ts` in its own network namespace with only loopback up: Chromium's WebRTC then
 * has no other interface to gather candidates from, so no media packet can leave loopback.
 */
function runJourney(dist: string): Record<string, unknown> {
  const script = fileURLToPath(new URL('./live/run-live-journey.ts', import.meta.url));
  const run = spawnSync(
    'unshare',
    ['--net', 'sh', '-c', 'ip link set lo up && exec "$0" "$1"', process.execPath, script],
    {
      encoding: 'utf8',
      env: { ...process.env, WEB_DIST: dist },
      timeout: 280_000,
      maxBuffer: 16 * 1024 * 1024,
    },
  );
  const line = run.stdout.split('\n').find((l) => l.startsWith('JOURNEY_RESULT '));
  if (!line) throw new Error(`the journey printed no result:\n${run.stdout}\n${run.stderr}`);
  return JSON.parse(line.slice('JOURNEY_RESULT '.length)) as Record<string, unknown>;
}

type StudentFigures = {
  layer: 'q' | 'h' | 'f';
  webcam: { width: number; height: number; fps: number };
  screenWidth: number;
  audio: { playing: boolean; receiving: boolean }[];
  tapShown: number | null;
};

describe.runIf(isolated && chromiumAvailable())('live journey through the pages (real media service)', () => {
  it('a teacher teaches three students live: four streams, qualities, webcam off and on, the end', () => {
    const result = runJourney(buildWebOnce());
    if (result.error) console.error(result.serverLogs, result.mediaLogs);
    const { students, layerReachedMs, switchMs, webcamOffMs, webcamOnMs, ended } = result;
    console.info(
      'live journey figures',
      JSON.stringify({ students, layerReachedMs, switchMs, webcamOffMs, webcamOnMs, ended }),
    );
    expect(result.error, `failed at: ${String(result.step)}`).toBeUndefined();
    expect(result.step).toBe('done');

    // Opening the teacher's room makes the class live.
    expect(result.liveBefore).toBe(false);
    expect(result.teacherConnectedMs).not.toBeNull();
    expect(result.liveAfterStart).not.toBeNull();
    expect(result.published).toEqual({
      webcam: '송출 중',
      microphone: '송출 중',
      screen: '송출 중',
      systemAudio: '송출 중',
    });
    expect(result.teacherPreviews).toEqual({ webcam: 1280, screen: 1280 });
    expect(result.viewerCountMs, 'the teacher sees 3 viewers').not.toBeNull();

    // Each student gets the quality they chose, the screen, and both sounds.
    for (const ms of result.layerReachedMs as (number | null)[]) expect(ms).not.toBeNull();
    const expected = { q: [320, 180], h: [640, 360], f: [1280, 720] } as const;
    for (const student of result.students as StudentFigures[]) {
      expect([student.webcam.width, student.webcam.height]).toEqual(expected[student.layer]);
      expect(student.webcam.fps, `webcam frames per second at ${student.layer}`).toBeGreaterThanOrEqual(15);
      expect(student.screenWidth).toBe(1280);
      expect(student.audio).toEqual([
        { playing: true, receiving: true },
        { playing: true, receiving: true },
      ]);
    }
    expect(result.switchMs, 'the low-quality student switched to 1280 wide').not.toBeNull();

    // The webcam goes away and comes back without a reload.
    for (const ms of result.webcamOffMs as (number | null)[]) expect(ms).not.toBeNull();
    for (const ms of result.webcamOnMs as (number | null)[]) expect(ms).not.toBeNull();

    // The teacher leaves: every student is told and lands on the student dashboard; the class is not live.
    for (const ended of result.ended as { noticeMs: number | null; path: string }[]) {
      expect(ended.noticeMs, 'the lecture-ended notice').not.toBeNull();
      expect(ended.path).toBe(result.expectedPath);
    }
    expect(result.liveAfterLeave).not.toBeNull();
    expect(result.violations).toEqual({ teacherRoom: [], studentRoom: [], studentDashboard: [] });
  }, 300_000);
});
