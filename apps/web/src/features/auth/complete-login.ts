import type { TokenPair } from '@sea/contract/auth';
import { exchangeCode, isRegistered } from './api/exchange-code.ts';
import { checkLoginState } from './login-state.ts';

/** Where the callback goes next: logged in, or on to sign-up with the tokens. */
export type LoginOutcome =
  | { kind: 'registered'; tokens: TokenPair }
  | { kind: 'unregistered'; tokens: TokenPair }
  | { kind: 'state-mismatch' };

// A login code and its state work once. React's development double-mount (or a re-render) must not spend
// them twice, so every run for the same code shares the first one's result.
const attempts = new Map<string, Promise<LoginOutcome>>();

async function attempt(code: string, state: string | null): Promise<LoginOutcome> {
  if (!checkLoginState(state)) return { kind: 'state-mismatch' };
  const tokens = await exchangeCode(code);
  return { kind: (await isRegistered(tokens.accessToken)) ? 'registered' : 'unregistered', tokens };
}

/**
 * Checks the `state` this tab sent, exchanges `code` for tokens and asks whether that account has signed up
 * (product-spec section 4). Rejects when the exchange or the check fails.
 */
export function completeLogin(code: string, state: string | null): Promise<LoginOutcome> {
  let result = attempts.get(code);
  if (!result) {
    result = attempt(code, state);
    attempts.set(code, result);
  }
  return result;
}
