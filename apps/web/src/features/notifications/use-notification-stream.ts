import { useQueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import { ROUTES } from '@sea/contract/paths';
import type { NotificationList } from '@sea/contract/notifications';
import { getAccessToken } from '../../lib/auth-tokens.ts';
import { apiUrl } from '../../lib/http.ts';
import { classKeys } from '../../lib/class-keys.ts';
import { useLoggedIn } from '../../lib/use-logged-in.ts';
import { fetchNotifications, NOTIFICATIONS_KEY } from './api/notification-api.ts';
import { NotificationStream } from './notification-stream.ts';

/**
 * While logged in, listens to the notice stream and puts each new notice at the top of the cached list (the
 * bell's count follows at once); `onNotice` hears it too (a toast). A go-live notice refreshes the class lists.
 */
export function useNotificationStream(onNotice?: (text: NotificationList['items'][number]) => void) {
  const loggedIn = useLoggedIn();
  const queryClient = useQueryClient();
  useEffect(() => {
    if (!loggedIn) return undefined;
    const stream = new NotificationStream({
      url: apiUrl(ROUTES.notificationStream),
      token: getAccessToken,
      // Any authenticated request renews the tokens after a 401 (the HTTP client's single refresh).
      renew: () =>
        fetchNotifications().then(
          () => true,
          () => false,
        ),
    });
    const stop = stream.events.on('notification', (item) => {
      queryClient.setQueryData<NotificationList>(NOTIFICATIONS_KEY, (list) =>
        list === undefined
          ? list
          : {
              items: [item, ...list.items.filter((old) => old.id !== item.id)],
              unread_count: list.unread_count + 1,
            },
      );
      void queryClient.invalidateQueries({ queryKey: NOTIFICATIONS_KEY, refetchType: 'none' });
      // A class went live: the lists on screen (the home page's live classes, the live list, /classroom's
      // cards) show it without a reload.
      if (item.kind === 'class_live') void queryClient.invalidateQueries({ queryKey: classKeys.all });
      onNotice?.(item);
    });
    return () => {
      stop();
      stream.close();
    };
  }, [loggedIn, queryClient, onNotice]);
}
