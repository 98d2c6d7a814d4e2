import { describe, expect, it } from 'vitest';
import { formatScheduleDate, formatScheduleTime, toApiTime } from './format-schedule.ts';

describe('schedule formatting', () => {
  it.each([
    ['2026-11-21', '2026년 11월 21일 (토)'],
    ['2026-01-01', '2026년 1월 1일 (목)'],
    ['not-a-date', 'not-a-date'],
  ])('shows %s as %s', (date, shown) => {
    expect(formatScheduleDate(date)).toBe(shown);
  });

  it('shows times without seconds and sends them with seconds', () => {
    expect(formatScheduleTime('09:30:00')).toBe('09:30');
    expect(toApiTime('09:30')).toBe('09:30:00');
    expect(toApiTime('09:30:15')).toBe('09:30:15');
  });
});
