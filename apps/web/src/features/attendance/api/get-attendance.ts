import { useQuery } from '@tanstack/react-query';
import { AttendanceSchema } from '@sea/contract/attendance';
import type { Attendance } from '@sea/contract/attendance';
import { ROUTES, toPath } from '@sea/contract/paths';
import { classKeys } from '../../../lib/class-keys.ts';
import { http } from '../../../lib/http.ts';

/** `GET /api/classes/{id}/attendance`: every student's rows for the teacher, the caller's own for a student. */
export function getAttendance(classId: number): Promise<Attendance> {
  return http(toPath(ROUTES.attendance, { classId }), { schema: AttendanceSchema });
}

export function useAttendance(classId: number) {
  return useQuery({ queryKey: classKeys.attendance(classId), queryFn: () => getAttendance(classId) });
}
