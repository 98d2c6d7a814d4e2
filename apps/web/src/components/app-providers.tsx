import { matchQuery, QueryClientProvider } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { NotificationProvider } from './ui/notification-provider.tsx';
import { getAccessToken, subscribeTokens } from '../lib/auth-tokens.ts';
import { CURRENT_USER_KEY } from '../lib/current-user.ts';

/** Everything a page needs above it: server-data cache and notifications. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  // On logout (tokens gone) drop every cached answer: they may belong to the user who left. The user info
  // still on its way stays: when the server refused the refresh, its 401 is how the frame learns to go to
  // /login (product-spec section 8); a deliberate logout cancels it first (`useLogOutTo`).
  useEffect(
    () =>
      subscribeTokens(() => {
        if (getAccessToken() !== null) return;
        const pendingUserInfo = { queryKey: CURRENT_USER_KEY, exact: true, fetchStatus: 'fetching' } as const;
        queryClient.removeQueries({ predicate: (query) => !matchQuery(pendingUserInfo, query) });
        queryClient.getMutationCache().clear();
      }),
    [queryClient],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <NotificationProvider>{children}</NotificationProvider>
    </QueryClientProvider>
  );
}
