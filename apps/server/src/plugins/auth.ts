import { and, eq, isNull } from 'drizzle-orm';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import { createTokens, type Tokens } from './tokens.ts';
import type { Database } from '../db/database.ts';
import { users } from '../db/schema.ts';
import { unauthorized } from '../errors.ts';

/** The caller of a request with a valid access token: its account, and when that token expires (epoch ms). */
export type AuthContext = { accountId: string; expiresAt: number };

/** A registered (not withdrawn) user. */
export type ActiveUser = typeof users.$inferSelect;

declare module 'fastify' {
  interface FastifyInstance {
    tokens: Tokens;
    /** onRequest hook of bearer routes: answers 401 unless a valid access token is sent. */
    authenticate: (request: FastifyRequest) => Promise<void>;
    /** onRequest hook of routes where a token is optional: a missing or invalid token leaves `auth` null. */
    identify: (request: FastifyRequest) => Promise<void>;
  }
  interface FastifyRequest {
    /** Set by `authenticate` (always) or `identify` (when a valid token came). */
    auth: AuthContext | null;
  }
}

function bearerToken(request: FastifyRequest): string | null {
  const header = request.headers.authorization;
  if (!header) return null;
  const match = /^Bearer\s+(\S+)\s*$/i.exec(header);
  return match?.[1] ?? null;
}

/** Decorates the app with `tokens`, `authenticate` and `identify`. */
export function registerAuth(app: FastifyInstance, jwtSecret: string): void {
  const tokens = createTokens(jwtSecret);
  app.decorate('tokens', tokens);
  app.decorateRequest('auth', null);
  app.decorate('authenticate', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (token === null) throw unauthorized();
    const { sub, exp } = await tokens.verifyAccess(token);
    request.auth = { accountId: sub, expiresAt: exp * 1000 };
  });
  app.decorate('identify', async (request: FastifyRequest) => {
    const token = bearerToken(request);
    if (token === null) return;
    try {
      const { sub, exp } = await tokens.verifyAccess(token);
      request.auth = { accountId: sub, expiresAt: exp * 1000 };
    } catch {
      // An expired token on a public route reads as anonymous; routes that need identity answer 401 later.
      request.auth = null;
    }
  });
}

/** The caller's account id; 401 when the request is anonymous. */
export function accountIdOf(request: FastifyRequest): string {
  if (request.auth === null) throw unauthorized();
  return request.auth.accountId;
}

/** The registered user behind an account, or null (never signed up, or withdrawn). */
export async function findActiveUser(db: Database, accountId: string): Promise<ActiveUser | null> {
  const [user] = await db
    .select()
    .from(users)
    .where(and(eq(users.id, accountId), isNull(users.deletedAt)))
    .limit(1);
  return user ?? null;
}

/** The caller as a registered user; 401 when anonymous, not signed up or withdrawn. */
export async function requireUser(request: FastifyRequest): Promise<ActiveUser> {
  const user = await findActiveUser(request.server.db, accountIdOf(request));
  if (user === null) throw unauthorized('회원가입을 먼저 완료해 주세요.', 'Sign-up is required.');
  return user;
}
