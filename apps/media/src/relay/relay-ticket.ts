import { randomUUID } from 'node:crypto';
import { SignJWT } from 'jose';
import { LIVE_TICKET_AUDIENCE } from '@sea/contract/live-ticket';

const RELAY_TICKET_TTL_S = 60;

/**
 * The ticket an edge node signs itself to enter its origin's room as a relay (`relay: true`, the user
 * `relay:{nodeId}`): one use, like every live ticket, signed with MEDIA_SECRET, which every node shares.
 */
export function signRelayTicket(secret: string, nodeId: string, classId: number): Promise<string> {
  return new SignJWT({ classId, nickname: 'relay', role: 'student', relay: true })
    .setProtectedHeader({ alg: 'HS256' })
    .setSubject(`relay:${nodeId}`)
    .setJti(randomUUID())
    .setAudience(LIVE_TICKET_AUDIENCE)
    .setIssuedAt()
    .setExpirationTime(Math.floor(Date.now() / 1000) + RELAY_TICKET_TTL_S)
    .sign(new TextEncoder().encode(secret));
}
