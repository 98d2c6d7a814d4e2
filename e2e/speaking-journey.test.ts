import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { chromiumAvailable } from '../harness/chromium.ts';
import { buildWebOnce } from '../harness/web-build.ts';
import { runJourney } from './live/run-isolated.ts';

const SCRIPT = fileURLToPath(new URL('./live/run-speaking-journey.ts', import.meta.url));

type Heard = { elements: number; playing: boolean; packetsGained: number; energyGained: number };

describe.runIf(chromiumAvailable())('speaking journey (real media service)', () => {
  it('a raised hand is invited, accepts, and the teacher and the other student hear the speaker', () => {
    const result = runJourney(SCRIPT, buildWebOnce(), 200_000);
    if (result.error) console.error(result.serverLogs, result.mediaLogs);
    console.info(
      'speaking journey figures',
      JSON.stringify({ heard: result.heard, step: result.step, stepMs: result.stepMs }),
    );
    expect(result.error, `failed at: ${String(result.step)}`).toBeUndefined();
    expect(result.step).toBe('done');
    expect(result.teacherMicrophone).not.toBeNull();
    expect(result.promptBeforeInvitation).toBe(0);
    expect(result.teacherSeesWaiting).not.toBeNull();
    expect(result.speakingShownMs, "the student's 발언 중").not.toBeNull();
    expect(result.endOwnButton).toBe(1);
    expect(result.teacherSeesSpeaking).not.toBeNull();
    const heard = result.heard as Record<'teacher' | 'otherStudent', Heard>;
    for (const who of ['teacher', 'otherStudent'] as const) {
      expect(heard[who].elements, `${who}: one audio element for the one speaker`).toBe(1);
      expect(heard[who].playing, `${who}: the speaker's audio plays`).toBe(true);
      expect(heard[who].packetsGained, `${who}: packets keep arriving`).toBeGreaterThan(10);
      expect(heard[who].energyGained, `${who}: the beep carries sound`).toBeGreaterThan(0);
    }
    expect(result.speakerOwnAudio, 'the speaker does not hear themself').toBe(0);
    expect(result.indicatorGoneMs, "the speaker's 발언 중 ends with the teacher's 발언 종료").not.toBeNull();
    expect(result.speakerAudioGone).toEqual({
      teacher: expect.any(Number),
      otherStudent: expect.any(Number),
    });
    expect(result.violations).toEqual({ prompt: [], speaking: [], teacherSpeakers: [] });
  }, 240_000);
});
