import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ROUTES, toPath } from '@sea/contract/paths';
import { ScheduleSchema, type Schedule } from '@sea/contract/schedules';
import { classKeys } from '../../../lib/class-keys.ts';
import { http } from '../../../lib/http.ts';

/** `GET /api/classes/{id}/schedule/upcoming`: the next entries not yet ended (public). */
export function getUpcomingSchedule(classId: number): Promise<Schedule[]> {
  return http(toPath(ROUTES.upcomingSchedule, { classId }), { schema: z.array(ScheduleSchema) });
}

export function useUpcomingSchedule(classId: number) {
  return useQuery({
    queryKey: classKeys.upcomingSchedule(classId),
    queryFn: () => getUpcomingSchedule(classId),
  });
}
