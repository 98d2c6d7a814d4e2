import { flushSync } from 'react-dom';
import { RouterProvider } from 'react-router';
import type { RouterProviderProps } from 'react-router';

function flush(update: () => unknown): undefined {
  flushSync(update);
  return undefined;
}

/**
 * The router's provider given React DOM's `flushSync`, so that `navigate(to, { flushSync: true })` commits
 * its first state update (the pending navigation, or the new page when nothing loads) before the promise
 * settles; `useLogOutTo` relies on it. `react-router/dom` exports the same provider, but under Vitest it
 * loads a second copy of the router beside the one the hooks use.
 */
export function AppRouterProvider({ router }: Pick<RouterProviderProps, 'router'>) {
  return <RouterProvider router={router} flushSync={flush} />;
}
