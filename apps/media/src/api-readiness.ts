import { ROUTES } from '@sea/contract/paths';
import { READINESS_CHECK_MS, readiness, type Readiness } from '@sea/contract/readiness';

/**
 * The media node's readiness (`GET /ready`): whether the API server at API_URL answers its `/health`. Without
 * it no class can go live here (rooms are reported to it, and the tickets students bring come from it).
 */
export function apiReadiness(apiUrl: string, fetchApi: typeof fetch = fetch): () => Promise<Readiness> {
  return async () => {
    const api = await fetchApi(`${apiUrl}${ROUTES.health}`, {
      signal: AbortSignal.timeout(READINESS_CHECK_MS),
    }).then(
      (response) => (response.ok ? 'up' : 'down'),
      () => 'down' as const,
    );
    return readiness({ api });
  };
}
