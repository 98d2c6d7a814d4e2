import { describe, expect, it } from 'vitest';
import type { SessionRecording } from '@sea/contract/sessions';
import { canRemake, gapMarks, gapsText, sessionStatus } from './session-status.ts';

function recording(overrides: Partial<SessionRecording>): SessionRecording {
  return {
    state: 'ready',
    progress: 100,
    title: null,
    hidden: false,
    hls_url: null,
    mp4_url: null,
    error: null,
    gaps: [],
    ...overrides,
  };
}

describe('sessionStatus', () => {
  it.each([
    [recording({ state: 'recording', progress: 0 }), '녹화 중', 'live'],
    [recording({ state: 'processing', progress: 42 }), '처리 중 42%', 'busy'],
    [recording({ state: 'ready' }), '다시보기', 'ready'],
    [recording({ state: 'none', progress: 0 }), '녹화 안 함', 'muted'],
    [recording({ state: 'failed', error: '녹화 파일을 찾을 수 없어요.' }), '처리 실패', 'failed'],
  ] as const)('labels %o as %s', (value, label, tone) => {
    expect(sessionStatus(value)).toMatchObject({ label, tone });
  });

  it('keeps the progress while processing only', () => {
    expect(sessionStatus(recording({ state: 'processing', progress: 7 })).progress).toBe(7);
    expect(sessionStatus(recording({ state: 'ready' })).progress).toBeNull();
  });

  it('carries the reason of a failure and of a recording that waits raw', () => {
    expect(sessionStatus(recording({ state: 'failed', error: '실패 이유' })).error).toBe('실패 이유');
    const waiting = sessionStatus(recording({ state: 'processing', progress: 0, error: 'ffmpeg가 없어요.' }));
    expect(waiting).toMatchObject({ label: '처리 중 0%', tone: 'failed', error: 'ffmpeg가 없어요.' });
    expect(sessionStatus(recording({ state: 'processing', error: '  ' })).error).toBeNull();
  });
});

describe('gapsText', () => {
  it('names the stretches a ready replay is missing, in lecture time', () => {
    const gaps = [
      { from_s: 750, until_s: 1_085, at_s: 750 },
      { from_s: 3_700, until_s: 3_760, at_s: 3_365 },
    ];
    expect(gapsText(recording({ gaps }))).toBe('녹화되지 않은 구간: 12:30-18:05, 1:01:40-1:02:40');
    expect(gapsText(recording({ gaps: [] }))).toBeNull();
    expect(gapsText(recording({ state: 'processing', gaps }))).toBeNull();
  });
});

describe('canRemake', () => {
  it('offers 다시 만들기 on a failed replay and on one waiting with a reason, not on one simply processing', () => {
    expect(canRemake(recording({ state: 'failed', error: '녹화 파일이 손상되어…' }))).toBe(true);
    expect(canRemake(recording({ state: 'processing', error: '저장 공간이 부족해…' }))).toBe(true);
    expect(canRemake(recording({ state: 'processing', error: null }))).toBe(false);
    expect(canRemake(recording({ state: 'ready' }))).toBe(false);
  });
});

describe('gapMarks', () => {
  it('puts each gap where the replay cuts it, on the replay’s own length', () => {
    // A 100-minute lecture missing 10:00-20:00 and 50:00-60:00, paused 30:00-40:00: a 70-minute replay
    // that cuts the gaps at 10:00 and 30:00.
    const marks = gapMarks(
      [
        { from_s: 600, until_s: 1200, at_s: 600 },
        { from_s: 3000, until_s: 3600, at_s: 1800 },
      ],
      4200,
    );
    expect(marks).toEqual([
      { atPercent: 14.3, label: '녹화되지 않은 구간 10:00-20:00' },
      { atPercent: 42.9, label: '녹화되지 않은 구간 50:00-1:00:00' },
    ]);
  });

  it('marks nothing without gaps or before the replay’s length is known', () => {
    expect(gapMarks([], 600)).toEqual([]);
    expect(gapMarks([{ from_s: 0, until_s: 600, at_s: 0 }], 0)).toEqual([]);
  });
});
