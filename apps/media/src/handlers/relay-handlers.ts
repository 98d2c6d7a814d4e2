import { forbidden } from '../live-error.ts';
import type { Handler } from './handler.ts';

/** An edge node's relay: its students in the class now, counted in the teacher's viewer count. */
export const relayViewers: Handler<'relayViewers'> = (session, payload) => {
  if (!session.claims.relay) throw forbidden('미디어 노드만 할 수 있어요.');
  const { peer, room } = session.inRoom();
  room.setRelayViewers(peer, payload.count);
  return {};
};
