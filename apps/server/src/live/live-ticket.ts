import { randomUUID } from 'node:crypto';
import { jwtVerify, SignJWT } from 'jose';
import {
  LIVE_TICKET_AUDIENCE,
  LIVE_TICKET_TTL_S,
  MEDIA_CALLBACK_AUDIENCE,
  type LiveTicketClaims,
} from '@sea/contract/live-ticket';
import { unauthorized } from '../errors.ts';

const ALGORITHM = 'HS256';
const key = (secret: string) => new TextEncoder().encode(secret);

/**
 * Signs a live ticket for the media service: HS256 with MEDIA_SECRET, audience LIVE_TICKET_AUDIENCE, and a
 * fresh `jti` (the media service accepts each ticket once).
 */
export async function signLiveTicket(secret: string, claims: Omit<LiveTicketClaims, 'jti'>): Promise<string> {
  const { sub, ...rest } = claims;
  return new SignJWT(rest)
    .setProtectedHeader({ alg: ALGORITHM })
    .setSubject(sub)
    .setJti(randomUUID())
    .setAudience(LIVE_TICKET_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + LIVE_TICKET_TTL_S)
    .sign(key(secret));
}

/** Checks a media service call's bearer token (MEDIA_SECRET, audience MEDIA_CALLBACK_AUDIENCE); 401 otherwise. */
export async function verifyMediaCall(secret: string, authorization: string | undefined): Promise<void> {
  const token = /^Bearer\s+(\S+)$/i.exec(authorization ?? '')?.[1];
  if (token === undefined)
    throw unauthorized('미디어 서버 인증이 필요해요.', 'A media service token is required.');
  try {
    await jwtVerify(token, key(secret), { algorithms: [ALGORITHM], audience: MEDIA_CALLBACK_AUDIENCE });
  } catch {
    throw unauthorized('미디어 서버 인증이 올바르지 않아요.', 'Invalid media service token.');
  }
}
