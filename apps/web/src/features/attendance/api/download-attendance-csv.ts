import { attendanceCsvName } from '@sea/contract/attendance';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';

/** The byte order mark that tells spreadsheet programs the file is UTF-8 (so they show the Korean). */
const UTF8_BOM = '\uFEFF';

/**
 * `GET /api/classes/{id}/attendance?format=csv`, saved as a file named after the class. The route needs the bearer token, so a plain
 * link cannot fetch it: the app's client fetches it and the browser saves the blob. Reading the body as text
 * drops the server's byte order mark, so it is put back.
 */
export async function downloadAttendanceCsv(classId: number, className: string): Promise<void> {
  const text = await http<unknown>(toPath(ROUTES.attendance, { classId }), {
    query: { format: 'csv' },
    bare: true,
  });
  if (typeof text !== 'string') throw new Error('The attendance CSV route answered something else than text');
  const blob = new Blob([UTF8_BOM, text.startsWith(UTF8_BOM) ? text.slice(1) : text], {
    type: 'text/csv;charset=utf-8',
  });
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    // The server's own name ('노션으로 하루 정리_출석부_2026-12-02.csv'): a blob's link does not read its header.
    link.download = attendanceCsvName(className, new Date());
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the download; the URL is not needed past it.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
