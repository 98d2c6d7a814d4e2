import { forbidden } from '../live-error.ts';
import type { Session } from '../session.ts';
import type { Handler } from './handler.ts';

/** An edge node's relay's peer and room (else `forbidden`: only media nodes send these). */
export function asRelay(session: Session) {
  if (!session.claims.relay) throw forbidden('미디어 노드만 할 수 있어요.');
  return session.inRoom();
}

/**
 * An edge node's relay: its students in the class now, counted in the teacher's viewer count, known by id and
 * nickname so that the teacher may invite one of them to speak (seated through this relay).
 */
export const relayViewers: Handler<'relayViewers'> = (session, payload) => {
  const { peer, room } = asRelay(session);
  room.setRelayViewers(peer, payload);
  return {};
};

/**
 * An edge node's relay: its student, invited through it, accepted. Only a seat held through this relay, which
 * holds only users it lists (a user it stops listing loses the seat), may be accepted.
 */
export const relayAcceptSpeak: Handler<'relayAcceptSpeak'> = (session, { userId }) => {
  const { peer, room } = asRelay(session);
  room.speaking.accept(peer, userId);
  return room.speakingView(null);
};

/** An edge node's relay: its student stopped speaking (or declined, or left the edge). */
export const relayEndSpeaking: Handler<'relayEndSpeaking'> = (session, { userId }) => {
  const { peer, room } = asRelay(session);
  if (room.speaking.holds(peer, userId)) room.speaking.end(userId);
  return room.speakingView(null);
};
