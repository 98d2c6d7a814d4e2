import { ATTENDANCE_CSV_HEADER, ATTENDANCE_STATUS_LABELS, type Attendance } from '@sea/contract/attendance';

/** The byte order mark that makes spreadsheet programs read the file as UTF-8 (and so show the Korean). */
export const UTF8_BOM = '\uFEFF';

const seoul = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Asia/Seoul',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
  second: '2-digit',
  hourCycle: 'h23',
});

/** `2026-03-02 14:05:09`, Korean time: what a spreadsheet reads as a date and time. */
function seoulTime(iso: string | null): string {
  return iso === null ? '' : seoul.format(new Date(iso));
}

/** Minutes with one decimal. */
function minutes(seconds: number): string {
  return (Math.round(seconds / 6) / 10).toFixed(1);
}

/**
 * One CSV field: quoted when it holds a comma, quote or line break; a text a spreadsheet would run as a
 * formula (starting with = + - @ or a tab) is prefixed with an apostrophe.
 */
export function csvField(value: string): string {
  const safe = /^[=+\-@\t\r]/.test(value) ? `'${value}` : value;
  return /[",\r\n]/.test(safe) ? `"${safe.replaceAll('"', '""')}"` : safe;
}

/**
 * The attendance as a CSV file (RFC 4180, CRLF lines) with a UTF-8 BOM and the Korean header row: one line
 * per student and session (the session by its title, else its start), 출석 / 지각 / 결석, times in Korean
 * time, watch times in minutes.
 */
export function attendanceCsv(record: Attendance): string {
  const sessions = new Map(record.sessions.map((session) => [session.id, session]));
  const lines = [ATTENDANCE_CSV_HEADER.join(',')];
  for (const row of record.rows) {
    const session = sessions.get(row.session_id);
    const first = row.joins[0]?.joined_at ?? null;
    const last = row.joins.at(-1)?.left_at ?? null;
    lines.push(
      [
        session?.title?.trim() || seoulTime(session?.started_at ?? null),
        seoulTime(session?.started_at ?? null),
        seoulTime(session?.ended_at ?? null),
        row.nickname ?? '(탈퇴한 회원)',
        ATTENDANCE_STATUS_LABELS[row.status],
        seoulTime(first),
        seoulTime(last),
        String(row.joins.length),
        minutes(row.live_watch_s),
        minutes(row.replay_watch_s),
        row.replay_percent === null ? '' : String(row.replay_percent),
      ]
        .map(csvField)
        .join(','),
    );
  }
  return `${UTF8_BOM}${lines.join('\r\n')}\r\n`;
}
