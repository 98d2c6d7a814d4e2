import { describe, expect, it } from 'vitest';
import { upcomingWhen } from './format-upcoming.ts';

// 23:30 on 25 November 2026 in Seoul: still the 25th there, though 14:30 UTC.
const NOW = new Date('2026-11-25T23:30:00+09:00');

describe('upcomingWhen', () => {
  it.each([
    ['2026-11-25', '20:00:00', '21:30:00', '오늘', '20:00 ~ 21:30'],
    ['2026-11-26', '09:00:00', '10:00:00', '내일', '09:00 ~ 10:00'],
    ['2026-11-26', '11:30:00', '13:00:00', '내일', '11:30 ~ 13:00'],
    ['2026-11-27', '00:00:00', '01:00:00', '2026년 11월 27일 (금)', '00:00 ~ 01:00'],
    ['2026-12-01', '12:00:00', '12:45:00', '2026년 12월 1일 (화)', '12:00 ~ 12:45'],
  ])('%s %s-%s is %s, %s', (date, start, end, day, time) => {
    expect(upcomingWhen({ date, start_time: start, end_time: end }, NOW)).toMatchObject({ day, time });
  });

  it("marks Seoul's today only", () => {
    expect(
      upcomingWhen({ date: '2026-11-25', start_time: '23:40:00', end_time: '23:50:00' }, NOW).today,
    ).toBe(true);
    // Midnight has passed in Seoul: the 25th is yesterday there, though still today in UTC.
    const afterMidnight = new Date('2026-11-26T00:10:00+09:00');
    expect(
      upcomingWhen({ date: '2026-11-25', start_time: '23:40:00', end_time: '23:50:00' }, afterMidnight),
    ).toMatchObject({
      day: '2026년 11월 25일 (수)',
      today: false,
    });
    expect(
      upcomingWhen({ date: '2026-11-26', start_time: '20:00:00', end_time: '21:00:00' }, afterMidnight),
    ).toMatchObject({
      day: '오늘',
      today: true,
    });
  });
});
