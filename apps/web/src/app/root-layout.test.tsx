import { waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { getAccessToken } from '../lib/auth-tokens.ts';
import { envelope, errorEnvelope, mockFetch } from '../testing/fetch-mock.ts';
import type { MockRoute } from '../testing/fetch-mock.ts';
import { renderRoutes } from '../testing/render.tsx';
import { routes } from './routes.tsx';
import { signedInPerTest } from '../testing/signed-in.ts';

const unauthorised = () => ({ status: 401, body: errorEnvelope(401, 'Unauthorized') });

/** The lists and categories the pages ask for, answered empty. */
const pageRoutes: MockRoute[] = [
  { url: /^\/api\/classes/, respond: () => ({ body: envelope([]) }) },
  { url: '/api/categories', respond: () => ({ body: [] }) },
];

signedInPerTest();

/** The header's user info answering 401 even after a refresh: tokens cleared, go to /login (spec section 8). */
describe('the user info refused', { timeout: 15_000 }, () => {
  it('when the server refuses the refresh too, a public page goes to /login', async () => {
    mockFetch([
      { url: '/api/users', respond: unauthorised },
      { method: 'POST', url: '/api/auth/refresh', respond: unauthorised },
      ...pageRoutes,
    ]);
    const { router } = renderRoutes(routes, '/list');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
    expect(getAccessToken()).toBeNull();
  });

  it('when the refresh cannot reach the server, the tokens go and so does the page', async () => {
    mockFetch([
      { url: '/api/users', respond: unauthorised },
      {
        method: 'POST',
        url: '/api/auth/refresh',
        respond: () => {
          throw new TypeError('unreachable');
        },
      },
      ...pageRoutes,
    ]);
    const { router } = renderRoutes(routes, '/live-list');
    await waitFor(() => expect(router.state.location.pathname).toBe('/login'), { timeout: 5000 });
    expect(getAccessToken()).toBeNull();
  });
});
