import { act, renderHook } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { seoulMoment } from './seoul-time.ts';
import { untilSeoulMidnight, useSeoulDay } from './use-seoul-day.ts';

afterEach(() => {
  vi.useRealTimers();
});

describe('untilSeoulMidnight', () => {
  it('counts to 00:00 in Seoul (15:00 UTC)', () => {
    expect(untilSeoulMidnight(Date.parse('2026-11-25T23:59:50+09:00'))).toBe(10_000);
    expect(untilSeoulMidnight(Date.parse('2026-11-25T15:00:00Z'))).toBe(24 * 60 * 60 * 1000);
    expect(untilSeoulMidnight(Date.parse('2026-11-25T09:00:00+09:00'))).toBe(15 * 60 * 60 * 1000);
  });
});

describe('useSeoulDay', () => {
  it('renders again with the new day just after midnight in Seoul, and not before', () => {
    vi.useFakeTimers({ toFake: ['setTimeout', 'clearTimeout', 'Date'] });
    vi.setSystemTime(new Date('2026-11-25T23:59:50+09:00'));
    let renders = 0;
    const { result, unmount } = renderHook(() => {
      renders += 1;
      return useSeoulDay();
    });
    expect(seoulMoment(result.current).date).toBe('2026-11-25');
    const before = renders;
    act(() => vi.advanceTimersByTime(9_000));
    expect(renders).toBe(before);
    act(() => vi.advanceTimersByTime(3_000));
    expect(seoulMoment(result.current).date).toBe('2026-11-26');
    expect(renders).toBe(before + 1);
    unmount();
    expect(vi.getTimerCount()).toBe(0);
  });
});
