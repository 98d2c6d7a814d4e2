const LOOPBACK_HOSTS = new Set(['localhost', '127.0.0.1', '[::1]']);

/**
 * True when the dev provider may send a browser (with a login code) to `redirectUri`: an http(s) address on
 * PUBLIC_URL's origin or on a loopback origin (a local dev server on another port). Anything else would be an
 * open redirect that hands codes to a foreign site.
 */
export function isAllowedRedirect(redirectUri: string, publicUrl: string): boolean {
  let target: URL;
  try {
    target = new URL(redirectUri);
  } catch {
    return false;
  }
  if (target.protocol !== 'http:' && target.protocol !== 'https:') return false;
  if (target.username !== '' || target.password !== '') return false;
  if (target.origin === new URL(publicUrl).origin) return true;
  return LOOPBACK_HOSTS.has(target.hostname);
}

/** `redirectUri` with `code` and `state` added to its query. */
export function redirectWithCode(redirectUri: string, code: string, state: string | undefined): string {
  const target = new URL(redirectUri);
  target.searchParams.set('code', code);
  if (state !== undefined) target.searchParams.set('state', state);
  return target.toString();
}
