const STATE_KEY = 'sea.loginState';

/** A fresh random `state` for the authorize request, kept until the callback checks it. */
export function createLoginState(): string {
  const bytes = new Uint8Array(16);
  crypto.getRandomValues(bytes);
  const state = Array.from(bytes, (byte) => byte.toString(16).padStart(2, '0')).join('');
  sessionStorage.setItem(STATE_KEY, state);
  return state;
}

/** True when `state` is the one this tab sent; the stored value is used once. */
export function checkLoginState(state: string | null): boolean {
  const expected = sessionStorage.getItem(STATE_KEY);
  sessionStorage.removeItem(STATE_KEY);
  return expected !== null && state !== null && state === expected;
}
