import { describe, expect, it } from 'vitest';
import { formatClock, formatDateTime, formatDuration, formatTimeOfDay } from './format-date-time.ts';

describe('formatting', () => {
  it('writes a moment as date, weekday and time of day in the local zone', () => {
    const moment = new Date(2026, 10, 25, 9, 5).toISOString();
    expect(formatDateTime(moment)).toBe('2026년 11월 25일 (수) 09:05');
    expect(formatTimeOfDay(moment)).toBe('09:05');
    expect(formatDateTime('soon')).toBe('soon');
    expect(formatTimeOfDay('soon')).toBe('');
  });

  it.each([
    [0, '0초'],
    [45, '45초'],
    [60, '1분'],
    [754, '12분'],
    [3_600, '1시간'],
    [3_900, '1시간 5분'],
  ])('a duration of %i s reads %s', (seconds, text) => {
    expect(formatDuration(seconds)).toBe(text);
  });

  it.each([
    [0, '0:00'],
    [245.9, '4:05'],
    [3_729, '1:02:09'],
  ])('the clock at %f s reads %s', (seconds, text) => {
    expect(formatClock(seconds)).toBe(text);
  });
});
