import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ROUTES, toPath } from '@sea/contract/paths';
import { ScheduleSchema } from '@sea/contract/schedules';
import type { Schedule, ScheduleCreate } from '@sea/contract/schedules';
import { http } from '../../../lib/http.ts';
import { classKeys } from '../../../lib/class-keys.ts';

/** `POST /api/classes/{id}/schedule` (teacher). */
export function addSchedule(classId: number, schedule: ScheduleCreate): Promise<Schedule> {
  return http(toPath(ROUTES.schedule, { classId }), {
    method: 'POST',
    json: schedule,
    schema: ScheduleSchema,
  });
}

/** `DELETE /api/classes/{id}/schedule` with `{ schedule_id }` (teacher). */
export function removeSchedule(classId: number, scheduleId: number): Promise<unknown> {
  return http(toPath(ROUTES.schedule, { classId }), {
    method: 'DELETE',
    json: { schedule_id: scheduleId },
  });
}

/**
 * Adding and removing schedule entries; both refresh the dashboard, which carries the schedule. Every other
 * answer about classes is only marked stale (cards and the class page carry `next_session_at`, the class
 * page the upcoming entries): each is fetched again when next shown, not all at once now.
 */
export function useScheduleMutations(classId: number) {
  const queryClient = useQueryClient();
  const refresh = async () => {
    await queryClient.invalidateQueries({ queryKey: classKeys.all, refetchType: 'none' });
    await queryClient.invalidateQueries({ queryKey: classKeys.dashboard(classId) });
  };
  const add = useMutation({
    mutationFn: (schedule: ScheduleCreate) => addSchedule(classId, schedule),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (scheduleId: number) => removeSchedule(classId, scheduleId),
    onSuccess: refresh,
  });
  return { add, remove };
}
