import { classScheduleIcsName } from '@sea/contract/calendar';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';
import { saveFile } from '../../../lib/save-file.ts';

/** `GET /api/classes/{id}/schedule.ics` (members), saved as a file a calendar app opens. */
export async function downloadScheduleIcs(classId: number): Promise<void> {
  const text = await http<unknown>(toPath(ROUTES.scheduleIcs, { classId }), { bare: true });
  if (typeof text !== 'string') throw new Error('The schedule route answered something else than text');
  saveFile(new Blob([text], { type: 'text/calendar;charset=utf-8' }), classScheduleIcsName(classId));
}
