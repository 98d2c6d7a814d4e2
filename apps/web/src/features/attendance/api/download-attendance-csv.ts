import { attendanceCsvName } from '@sea/contract/attendance';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';
import { saveCsv } from '../../../lib/save-file.ts';

/** `GET /api/classes/{id}/attendance?format=csv`, saved as a file. */
export async function downloadAttendanceCsv(classId: number): Promise<void> {
  const text = await http<unknown>(toPath(ROUTES.attendance, { classId }), {
    query: { format: 'csv' },
    bare: true,
  });
  saveCsv(text, attendanceCsvName(classId));
}
