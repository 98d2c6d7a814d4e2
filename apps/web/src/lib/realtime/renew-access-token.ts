import { ROUTES } from '@sea/contract/paths';
import { getAccessToken } from '../auth-tokens.ts';
import { http } from '../http.ts';

/**
 * Renews an expired access token: any bearer request does (the HTTP client refreshes on a 401, once for all
 * callers), and the signed-in user is the cheapest one. True when a token is stored afterwards.
 */
export async function renewAccessToken(): Promise<boolean> {
  try {
    await http(ROUTES.users);
    return getAccessToken() !== null;
  } catch {
    return false;
  }
}
