import { jwtVerify } from 'jose';
import {
  LIVE_TICKET_AUDIENCE,
  LiveTicketClaimsSchema,
  type LiveTicketClaims,
} from '@sea/contract/live-ticket';
import { LiveError } from './live-error.ts';

/** Checks a live ticket and returns its claims, or throws `unauthorized`. */
export type TicketVerifier = (ticket: unknown) => Promise<LiveTicketClaims>;

/** Verifies tickets signed by the API server with MEDIA_SECRET (HS256, audience {@link LIVE_TICKET_AUDIENCE}). */
export function createTicketVerifier(secret: string): TicketVerifier {
  const key = new TextEncoder().encode(secret);
  return async (ticket) => {
    if (typeof ticket !== 'string' || ticket.length === 0 || ticket.length > 4_096) {
      throw new LiveError('unauthorized', '입장권이 없어요.');
    }
    try {
      const { payload } = await jwtVerify(ticket, key, {
        audience: LIVE_TICKET_AUDIENCE,
        algorithms: ['HS256'],
      });
      return LiveTicketClaimsSchema.parse(payload);
    } catch {
      // Expired, forged or malformed: the client gets one clear answer; details would only help an attacker.
      throw new LiveError('unauthorized', '입장권이 유효하지 않아요. 다시 입장해 주세요.');
    }
  };
}
