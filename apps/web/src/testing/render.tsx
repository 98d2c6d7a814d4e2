import { render } from '@testing-library/react';
import type { RenderResult } from '@testing-library/react';
import { QueryClient } from '@tanstack/react-query';
import type { ReactNode } from 'react';
import { createMemoryRouter } from 'react-router';
import { AppRouterProvider } from '../lib/app-router-provider.tsx';
import type { RouteObject } from 'react-router';
import { AppProviders } from '../components/app-providers.tsx';

export type RenderOptions = {
  /** The URL the test starts at, or a location with navigation state. */
  route?: string | { pathname: string; search?: string; state?: unknown };
  /** The route pattern the element is mounted at (for useParams). */
  path?: string;
  /** Extra routes, e.g. targets of navigation the test checks. */
  routes?: RouteObject[];
};

export type Rendered = RenderResult & {
  router: ReturnType<typeof createMemoryRouter>;
  queryClient: QueryClient;
};

/** A query client for tests: no retries, no caching between tests. */
export function createTestQueryClient(): QueryClient {
  return new QueryClient({
    defaultOptions: { queries: { retry: false, gcTime: Infinity }, mutations: { retry: false } },
  });
}

/**
 * Renders `ui` with the app's providers inside a memory router. Navigation targets that the test adds in
 * `routes` (or the fallback that prints the path) let it assert where the page went.
 */
export function renderWithProviders(ui: ReactNode, options: RenderOptions = {}): Rendered {
  const { route = '/', path = '*', routes = [] } = options;
  const router = createMemoryRouter(
    [{ path, element: ui }, ...routes, { path: '*', element: <p data-testid="location">other page</p> }],
    { initialEntries: [route] },
  );
  return renderRouter(router);
}

/** Renders a whole route table (e.g. the app's own `routes`) at `route`. */
export function renderRoutes(table: RouteObject[], route = '/'): Rendered {
  const router = createMemoryRouter(table, { initialEntries: [route] });
  return renderRouter(router);
}

/** Renders a router inside the app's providers, with a fresh query client. */
function renderRouter(router: Rendered['router']): Rendered {
  const queryClient = createTestQueryClient();
  const result = render(
    <AppProviders queryClient={queryClient}>
      <AppRouterProvider router={router} />
    </AppProviders>,
  );
  return { ...result, router, queryClient };
}
