import { describe, expect, it } from 'vitest';
import type { Attendance } from '@sea/contract/attendance';
import { attendanceCsv, UTF8_BOM } from './attendance-csv.ts';

const record = (
  nickname: string | null,
  overrides: Partial<Attendance['rows'][number]> = {},
): Attendance => ({
  class_name: '수업',
  sessions: [{ id: 1, started_at: '2026-03-04T05:00:00.000Z', ended_at: null, title: null }],
  rows: [
    {
      session_id: 1,
      user_id: 'u',
      nickname,
      status: 'absent',
      joins: [],
      live_watch_s: 0,
      replay_watch_s: 0,
      replay_percent: null,
      ...overrides,
    },
  ],
});

/** The second line's fourth field (the student), as the CSV writes it. */
const studentField = (csv: string) =>
  csv.slice(UTF8_BOM.length).split('\r\n')[1]?.split(',').slice(3, -7).join(',');

describe('attendance CSV', () => {
  it.each([
    ['a plain name', '바다', '바다'],
    ['a comma', '김,철수', '"김,철수"'],
    ['a quote', '그 "별명"', '"그 ""별명"""'],
    ['a formula', '=HYPERLINK("x")', '"\'=HYPERLINK(""x"")"'],
    ['a plus', '+82', "'+82"],
    ['a minus', '-1', "'-1"],
    ['an at sign', '@me', "'@me"],
    ['a withdrawn student', null, '(탈퇴한 회원)'],
  ])('writes %s safely', (_name, nickname, field) => {
    expect(studentField(attendanceCsv(record(nickname)))).toBe(field);
  });

  it('leaves times of a live session and of an open stay empty; minutes with one decimal; the progress', () => {
    const csv = attendanceCsv(
      record('바다', {
        status: 'present',
        joins: [{ joined_at: '2026-03-04T05:00:30.000Z', left_at: null }],
        live_watch_s: 89,
        replay_watch_s: 3600,
        replay_percent: 87,
      }),
    );
    expect(csv.startsWith(UTF8_BOM)).toBe(true);
    expect(csv.endsWith('\r\n')).toBe(true);
    // An untitled session is named by its start.
    expect(csv.split('\r\n')[1]).toBe(
      '2026-03-04 14:00:00,2026-03-04 14:00:00,,바다,출석,2026-03-04 14:00:30,,1,1.5,60.0,87',
    );
  });
});
