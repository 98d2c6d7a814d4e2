/**
 * Local-storage keys of the web app. A file without zod, so the web app's first page can read the tokens
 * without loading the schema library; `auth.ts` re-exports them.
 */
export const ACCESS_TOKEN_KEY = 'accessToken';
export const REFRESH_TOKEN_KEY = 'refreshToken';
