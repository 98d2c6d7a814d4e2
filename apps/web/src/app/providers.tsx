import { QueryClientProvider } from '@tanstack/react-query';
import type { QueryClient } from '@tanstack/react-query';
import { useEffect } from 'react';
import type { ReactNode } from 'react';
import { NotificationProvider } from '../components/ui/notification-provider.tsx';
import { getAccessToken, subscribeTokens } from '../lib/auth-tokens.ts';

/** Everything a page needs above it: server-data cache and notifications. */
export function AppProviders({ queryClient, children }: { queryClient: QueryClient; children: ReactNode }) {
  // On logout (tokens gone) drop every cached answer: they may belong to the user who left.
  useEffect(
    () =>
      subscribeTokens(() => {
        if (getAccessToken() === null) queryClient.clear();
      }),
    [queryClient],
  );
  return (
    <QueryClientProvider client={queryClient}>
      <NotificationProvider>{children}</NotificationProvider>
    </QueryClientProvider>
  );
}
