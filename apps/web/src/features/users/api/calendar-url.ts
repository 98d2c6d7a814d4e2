import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { CalendarUrlSchema } from '@sea/contract/calendar';
import { ROUTES } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';

const calendarUrlKey = ['users', 'me', 'calendar-url'] as const;

/** `GET /api/users/calendar-url`: the caller's private calendar feed (made on the first request). */
export function useCalendarUrl() {
  return useQuery({
    queryKey: calendarUrlKey,
    queryFn: () => http(ROUTES.calendarUrl, { schema: CalendarUrlSchema }),
  });
}

/** `POST /api/users/calendar-url/reset`: a new feed URL; the old one stops working. */
export function useResetCalendarUrl() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: () => http(ROUTES.calendarUrlReset, { method: 'POST', schema: CalendarUrlSchema }),
    onSuccess: (fresh) => queryClient.setQueryData(calendarUrlKey, fresh),
  });
}
