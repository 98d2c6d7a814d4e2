import { clearTokens } from './auth-tokens.ts';

/** Logs out on this device: both tokens are removed (the server keeps no session to end). */
export function logout(): void {
  clearTokens();
}
