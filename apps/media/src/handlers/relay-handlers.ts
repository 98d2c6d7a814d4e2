import { forbidden } from '../live-error.ts';
import type { Handler } from './handler.ts';

/**
 * An edge node's relay: its students in the class now, counted in the teacher's viewer count (and known by id,
 * so that inviting one of them to speak says why it cannot be done).
 */
export const relayViewers: Handler<'relayViewers'> = (session, payload) => {
  if (!session.claims.relay) throw forbidden('미디어 노드만 할 수 있어요.');
  const { peer, room } = session.inRoom();
  room.setRelayViewers(peer, payload.count, payload.userIds);
  return {};
};
