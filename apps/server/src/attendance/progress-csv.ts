import { PROGRESS_CSV_HEADER, type StudentProgress } from '@sea/contract/progress';
import { UTF8_BOM, csvField } from './attendance-csv.ts';

/**
 * The students' progress as a CSV file (RFC 4180, CRLF lines, UTF-8 BOM, Korean header row): one line per
 * student with the class's percent, the replays completed and the replays there are.
 */
export function progressCsv(students: readonly StudentProgress[]): string {
  const lines = [PROGRESS_CSV_HEADER.join(',')];
  for (const student of students) {
    const completed = student.sessions.filter((session) => session.completed).length;
    lines.push(
      [student.nickname, String(student.class_percent), String(completed), String(student.sessions.length)]
        .map(csvField)
        .join(','),
    );
  }
  return `${UTF8_BOM}${lines.join('\r\n')}\r\n`;
}
