import { describe, expect, it } from 'vitest';
import { todayLiveLine } from './format-next-session.ts';

// Instants are written with Seoul's offset (+09:00) so the table reads as the card would; the viewer's own
// time zone (jsdom's) plays no part.
const at = (seoul: string) => new Date(`${seoul}+09:00`);

describe('todayLiveLine', () => {
  it.each([
    ['2026-11-25T20:00:00+09:00', '2026-11-25T09:00:00', '오늘 20:00 라이브'],
    ['2026-11-25T20:30:00+09:00', '2026-11-25T09:00:00', '오늘 20:30 라이브'],
    ['2026-11-25T09:05:00+09:00', '2026-11-25T00:10:00', '오늘 09:05 라이브'],
    ['2026-11-25T00:00:00+09:00', '2026-11-25T00:00:00', '오늘 00:00 라이브'],
    ['2026-11-25T12:00:00+09:00', '2026-11-25T11:59:00', '오늘 12:00 라이브'],
    // An entry under way: the card still says when it began.
    ['2026-11-25T20:00:00+09:00', '2026-11-25T20:40:00', '오늘 20:00 라이브'],
    // The server's UTC text: 11:00Z is 20:00 in Seoul.
    ['2026-11-25T11:00:00Z', '2026-11-25T23:59:00', '오늘 20:00 라이브'],
  ])('%s seen at %s (Seoul) says %s', (next, now, line) => {
    expect(todayLiveLine(next, at(now))).toBe(line);
  });

  it.each([
    ['tomorrow', '2026-11-26T20:00:00+09:00', '2026-11-25T21:00:00'],
    ['tomorrow just after midnight', '2026-11-26T00:00:00+09:00', '2026-11-25T23:59:00'],
    ['a later day', '2026-12-01T20:00:00+09:00', '2026-11-25T21:00:00'],
    // 20:00 UTC on the 25th is already the 26th in Seoul, though the 25th in UTC.
    ["Seoul's tomorrow, UTC's today", '2026-11-25T20:00:00Z', '2026-11-25T10:00:00'],
  ])('%s says nothing', (_, next, now) => {
    expect(todayLiveLine(next, at(now))).toBeNull();
  });

  it('says nothing without a session or with an unreadable time', () => {
    expect(todayLiveLine(null, at('2026-11-25T09:00:00'))).toBeNull();
    expect(todayLiveLine('not a time', at('2026-11-25T09:00:00'))).toBeNull();
  });
});
