import { jwtVerify } from 'jose';
import {
  LIVE_TICKET_AUDIENCE,
  LiveTicketClaimsSchema,
  type LiveTicketClaims,
} from '@sea/contract/live-ticket';
import { LiveError } from './live-error.ts';

/** Checks a live ticket and returns its claims, or throws `unauthorized`. */
export type TicketVerifier = (ticket: unknown) => Promise<LiveTicketClaims>;

/** How often the memory of used tickets drops those that have expired anyway. */
const FORGET_EVERY_MS = 60_000;

/** Where used tickets are remembered: this process ({@link UsedTickets}), or Redis shared by every node. */
export type TicketMemory = {
  /** Records a ticket's use; false when it was used already. */
  use(jti: string, expiresAtMs: number): boolean | Promise<boolean>;
};

/**
 * The tickets already used (by `jti`), each kept until it expires: past that, its signature check refuses it
 * anyway. In this process's memory: with several media nodes (REDIS_URL) the nodes share one memory in Redis
 * instead (registry/redis-used-tickets.ts), so a ticket opens one connection on one node only.
 */
export class UsedTickets implements TicketMemory {
  private readonly expiries = new Map<string, number>();
  private forgotAt = Date.now();

  /** Records a ticket's use; false when it was used already. */
  use(jti: string, expiresAtMs: number, now = Date.now()): boolean {
    if (now - this.forgotAt >= FORGET_EVERY_MS) this.forget(now);
    if (this.expiries.has(jti)) return false;
    this.expiries.set(jti, expiresAtMs);
    return true;
  }

  /** Tickets remembered (tests). */
  get size(): number {
    return this.expiries.size;
  }

  private forget(now: number): void {
    this.forgotAt = now;
    for (const [jti, expiresAt] of this.expiries) if (expiresAt <= now) this.expiries.delete(jti);
  }
}

/**
 * Verifies tickets signed by the API server with MEDIA_SECRET (HS256, audience {@link LIVE_TICKET_AUDIENCE}),
 * each accepted once: a ticket opens one connection, and every reconnection asks the API server for a fresh
 * one, which checks the membership again.
 */
export function createTicketVerifier(secret: string, used: TicketMemory = new UsedTickets()): TicketVerifier {
  const key = new TextEncoder().encode(secret);
  return async (ticket) => {
    if (typeof ticket !== 'string' || ticket.length === 0 || ticket.length > 4_096) {
      throw new LiveError('unauthorized', '입장권이 없어요.');
    }
    let claims: LiveTicketClaims;
    let expiresAtMs: number;
    try {
      const { payload } = await jwtVerify(ticket, key, {
        audience: LIVE_TICKET_AUDIENCE,
        algorithms: ['HS256'],
        requiredClaims: ['exp', 'jti'],
      });
      claims = LiveTicketClaimsSchema.parse(payload);
      expiresAtMs = (payload.exp ?? 0) * 1000;
    } catch {
      // Expired, forged or malformed: the client gets one clear answer; details would only help an attacker.
      throw new LiveError('unauthorized', '입장권이 유효하지 않아요. 다시 입장해 주세요.');
    }
    if (!(await used.use(claims.jti, expiresAtMs))) {
      throw new LiveError('unauthorized', '이미 사용한 입장권이에요. 다시 입장해 주세요.');
    }
    return claims;
  };
}
