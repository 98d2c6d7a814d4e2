import { useQueryClient } from '@tanstack/react-query';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import { CURRENT_USER_KEY } from './current-user.ts';
import { logout } from './logout.ts';

/**
 * Logs out while leaving a page: goes to `to` (replacing the entry), then removes the tokens.
 *
 * The router renders navigations inside a React transition, so its promise may settle while the page being
 * left is still on screen; removing the tokens then re-renders that page at once, and on a private page
 * its guard would send the visitor to /login instead. `flushSync` commits the navigation's first state
 * (under way, or already the new page) before the promise settles, and the guard leaves a page alone while
 * a navigation is under way (`RequireAuth`).
 *
 * A user-info request still on its way is cancelled: its answer (a 401 once the account is withdrawn) would
 * otherwise read as the server ending the session and send the visitor to /login (`AppProviders`).
 */
export function useLogOutTo(): (to: string) => Promise<void> {
  const navigate = useNavigate();
  const queryClient = useQueryClient();
  return useCallback(
    async (to: string) => {
      await navigate(to, { replace: true, flushSync: true });
      // Cancelling is synchronous (the query reverts at once); the promise only reports when it settled.
      void queryClient.cancelQueries({ queryKey: CURRENT_USER_KEY, exact: true });
      logout();
    },
    [navigate, queryClient],
  );
}
