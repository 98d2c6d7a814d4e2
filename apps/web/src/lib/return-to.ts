const RETURN_TO_KEY = 'sea.returnTo';

/**
 * Remembers the private page a logged-out visitor wanted, so the login (which leaves the app for the
 * provider's page and comes back to the callback) can return there. Session storage: one tab, one login.
 */
export function rememberReturnTo(path: string): void {
  sessionStorage.setItem(RETURN_TO_KEY, path);
}

/** The remembered page (only same-app paths), forgotten once read; '/' when none. */
export function takeReturnTo(): string {
  const path = sessionStorage.getItem(RETURN_TO_KEY);
  sessionStorage.removeItem(RETURN_TO_KEY);
  // Only a path of this app: never follow something like '//elsewhere.example'.
  if (path === null || !path.startsWith('/') || path.startsWith('//')) return '/';
  return path;
}
