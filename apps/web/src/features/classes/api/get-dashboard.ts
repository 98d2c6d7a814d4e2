import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { CLASS_ROLES, ClassItemSchema } from '@sea/contract/classes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { ScheduleSchema } from '@sea/contract/schedules';
import { http } from '../../../lib/http.ts';
import { classKeys } from '../../../lib/class-keys.ts';

/** `GET /api/classes/{id}/dashboard`: the class item plus the caller's role and the schedule. */
export const DashboardSchema = ClassItemSchema.extend({
  role: z.enum([CLASS_ROLES.teacher, CLASS_ROLES.student]),
  schedules: z.array(ScheduleSchema),
});
export type Dashboard = z.infer<typeof DashboardSchema>;

export function getDashboard(classId: number): Promise<Dashboard> {
  return http(toPath(ROUTES.dashboard, { classId }), { schema: DashboardSchema });
}

/**
 * The dashboard; `refetchIntervalMs` keeps the live state fresh while the page is open. Not asked while
 * `enabled` is false (the caller already knows it would be refused).
 */
export function useDashboard(classId: number, refetchIntervalMs: number | false = false, enabled = true) {
  return useQuery({
    queryKey: classKeys.dashboard(classId),
    queryFn: () => getDashboard(classId),
    refetchInterval: refetchIntervalMs,
    enabled,
  });
}
