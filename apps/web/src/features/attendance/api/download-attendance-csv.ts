import { attendanceCsvName } from '@sea/contract/attendance';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';
import { saveCsv } from '../../../lib/save-file.ts';

/**
 * `GET /api/classes/{id}/attendance?format=csv`, saved as a file named after the class (the server's own name,
 * '노션으로 하루 정리_출석부_2026-12-02.csv': a blob's link does not read its header).
 */
export async function downloadAttendanceCsv(classId: number, className: string): Promise<void> {
  const text = await http<unknown>(toPath(ROUTES.attendance, { classId }), {
    query: { format: 'csv' },
    bare: true,
  });
  saveCsv(text, attendanceCsvName(className, new Date()));
}
