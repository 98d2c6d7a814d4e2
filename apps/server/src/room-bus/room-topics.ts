import { BOARD_TOPIC_PREFIX } from '@sea/contract/board';
import { CHAT_TOPIC_PREFIX } from '@sea/contract/chat';
import {
  HAND_TOPIC_PREFIX,
  MODERATION_TOPIC_PREFIX,
  POLL_TOPIC_PREFIX,
  QUESTION_TOPIC_PREFIX,
  REACTION_TOPIC_PREFIX,
} from '@sea/contract/classroom';
import { MAX_ID } from '@sea/contract/ids';

/** A destination clients subscribe to: one kind of news (chat messages, ...) of one class's room. */
export type RoomTopic = { destination: string; roomId: number };

/**
 * The kinds of room topics, each `<prefix><classId>`. A new kind of room news (questions, hands, polls...) adds
 * its prefix here; subscriptions, delivery, catch-up and membership checks are the same for every kind.
 */
export const ROOM_TOPIC_PREFIXES: readonly string[] = [
  CHAT_TOPIC_PREFIX,
  MODERATION_TOPIC_PREFIX,
  QUESTION_TOPIC_PREFIX,
  HAND_TOPIC_PREFIX,
  POLL_TOPIC_PREFIX,
  REACTION_TOPIC_PREFIX,
  BOARD_TOPIC_PREFIX,
];

/** The room topic `destination` names, or null for any other destination (or a class id that cannot exist). */
export function parseRoomTopic(destination: string): RoomTopic | null {
  const prefix = ROOM_TOPIC_PREFIXES.find((each) => destination.startsWith(each));
  if (prefix === undefined) return null;
  const rest = destination.slice(prefix.length);
  if (!/^[1-9]\d{0,9}$/.test(rest)) return null;
  const roomId = Number(rest);
  return roomId <= MAX_ID ? { destination, roomId } : null;
}
