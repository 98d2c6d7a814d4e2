import { z } from 'zod';

/** Local-storage keys of the web app (defined in the zod-free `auth-keys.ts`). */
export { ACCESS_TOKEN_KEY, REFRESH_TOKEN_KEY } from './auth-keys.ts';

/** Token lifetimes (the original API spec section 2). */
export const ACCESS_TOKEN_TTL_S = 60 * 60;
export const REFRESH_TOKEN_TTL_S = 14 * 24 * 60 * 60;

/** Login providers: the real Kakao, or the offline dev provider. */
export const AUTH_PROVIDERS = ['kakao', 'dev'] as const;
export type AuthProvider = (typeof AUTH_PROVIDERS)[number];

/** `GET /api/auth/kakao/app-key` (bare). */
export const AppKeySchema = z.object({ appKey: z.string(), provider: z.enum(AUTH_PROVIDERS) });
export type AppKey = z.infer<typeof AppKeySchema>;

/** Login and refresh answers (bare). */
export const TokenPairSchema = z.object({ accessToken: z.string(), refreshToken: z.string() });
export type TokenPair = z.infer<typeof TokenPairSchema>;

/** Body of `POST /api/auth/refresh`. */
export const RefreshSchema = z.object({ refreshToken: z.string().min(1) });

/** Query of the login callback. */
export const CallbackQuerySchema = z.object({ code: z.string().min(1).max(2048) });

/** The OAuth redirect path of the web app, relative to PUBLIC_URL. */
export const OAUTH_REDIRECT_PATH = '/oauth/kakao/callback';
