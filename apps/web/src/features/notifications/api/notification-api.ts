import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ROUTES } from '@sea/contract/paths';
import type { NotificationList } from '@sea/contract/notifications';
import { http } from '../../../lib/http.ts';
import { useLoggedIn } from '../../../lib/use-logged-in.ts';

/** Query key of the signed-in user's notices. */
export const NOTIFICATIONS_KEY = ['notifications'] as const;

export function fetchNotifications(): Promise<NotificationList> {
  return http<NotificationList>(ROUTES.notifications, { query: { page: 0 } });
}

/** The newest 20 notices and the unread count, while logged in. */
export function useNotifications() {
  const loggedIn = useLoggedIn();
  return useQuery({ queryKey: NOTIFICATIONS_KEY, queryFn: fetchNotifications, enabled: loggedIn });
}

/** `POST /api/notifications/read` for these ids (all without). */
export function useMarkRead() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (ids?: number[]) =>
      http<{ unread_count: number }>(ROUTES.notificationsRead, {
        method: 'POST',
        json: ids === undefined ? {} : { ids },
      }),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY }),
  });
}
