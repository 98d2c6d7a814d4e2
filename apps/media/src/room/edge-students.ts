import { conflict } from '../live-error.ts';
import type { Peer } from '../peer.ts';
import type { EdgeStudents, RoomAudience } from './room-audience.ts';
import type { SpeakerSeats } from './speaker-seats.ts';

/** An edge that lists the student but told no nicknames is older than speaking through relays. */
const ON_AN_OLD_EDGE = '이 수강생은 다른 미디어 서버로 접속해 있어서 발언에 초대할 수 없어요.';

/**
 * Invites a student who is on an edge node pulling the class: seated through that edge's relay, under the
 * nickname the edge told (`relayViewers`). False when no edge lists the student.
 */
export function inviteOnEdge(audience: RoomAudience, seats: SpeakerSeats, userId: string): boolean {
  const edge = audience.edgeOf(userId);
  if (!edge) return false;
  if (edge.nickname === undefined) throw conflict(ON_AN_OLD_EDGE);
  seats.inviteThrough(edge.relay, userId, edge.nickname);
  return true;
}

/** What an edge's relay tells of its students (`relayViewers`). */
export type EdgeStudentsTold = {
  count: number;
  userIds?: readonly string[];
  nicknames?: Readonly<Record<string, string>>;
};

/**
 * What an edge's relay tells of its students now (`relayViewers`), kept in the audience: the ids and nicknames
 * it leaves out stay as told before (an older edge tells only the number). A student it no longer lists loses
 * a seat held through it. True when their number changed; false too for a relay that is not (or no longer)
 * in the audience, which is told nothing.
 */
export function tellEdgeStudents(
  audience: RoomAudience,
  relay: Peer,
  seats: SpeakerSeats,
  now: EdgeStudentsTold,
): boolean {
  const told = audience.relays.get(relay);
  if (told === undefined) return false;
  const next: EdgeStudents = {
    count: now.count,
    userIds: now.userIds ? new Set(now.userIds) : told.userIds,
    nicknames: now.nicknames ? new Map(Object.entries(now.nicknames)) : told.nicknames,
  };
  seats.endThrough(relay, next.userIds);
  audience.relays.set(relay, next);
  return told.count !== next.count;
}
