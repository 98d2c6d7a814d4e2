import { useState } from 'react';
import type { QueryClient } from '@tanstack/react-query';
import { createBrowserRouter } from 'react-router';
import { AppRouterProvider } from '../lib/app-router-provider.tsx';
import { createQueryClient } from '../lib/query-client.ts';
import { AppProviders } from '../components/app-providers.tsx';
import { routes } from './routes.tsx';

/** The whole app: providers around the browser router. */
export function App({ queryClient: given }: { queryClient?: QueryClient }) {
  const [queryClient] = useState(() => given ?? createQueryClient());
  const [router] = useState(() => createBrowserRouter(routes));
  return (
    <AppProviders queryClient={queryClient}>
      <AppRouterProvider router={router} />
    </AppProviders>
  );
}
