import { z } from 'zod';
import { idText } from './ids.ts';

/** STOMP endpoint and destinations (the original API spec section 4). */
export const CHAT_ENDPOINT = '/ws';
export const CHAT_SEND_DESTINATION = '/app/hello';
export const CHAT_TOPIC_PREFIX = '/topic/greetings/';

/** The topic a class's chat is broadcast on. */
export function chatTopic(classId: number): string {
  return `${CHAT_TOPIC_PREFIX}${classId}`;
}

/** Longest accepted message content, in characters (grapheme clusters, as `text-length.ts` counts). */
export const MAX_CHAT_LENGTH = 500;

/** Heart-beat interval offered and honoured each way, in milliseconds. */
export const CHAT_HEARTBEAT_MS = 10_000;

/** The client reconnects after this delay. */
export const CHAT_RECONNECT_DELAY_MS = 5_000;

/** History page sizes of `GET /find/chat/list/{classId}`. */
export const CHAT_HISTORY_DEFAULT = 100;
export const CHAT_HISTORY_MAX = 500;

/** Body of a SEND to `/app/hello`. Extra fields clients send are ignored; `roomId` may be a number or its digits. */
export const ChatSendSchema = z.object({
  roomId: idText(),
  content: z.string(),
});
export type ChatSend = z.infer<typeof ChatSendSchema>;

/** A member's role in a class's room, as chat messages carry it. */
export const ROOM_ROLES = ['teacher', 'student'] as const;
export type RoomRole = (typeof ROOM_ROLES)[number];

/** A stored chat message as broadcast and as history returns it; `role` is the writer's role in the class. */
export const ChatMessageSchema = z.object({
  id: z.number().int(),
  roomId: z.number().int(),
  content: z.string(),
  writer: z.string().nullable(),
  writer_id: z.string().nullable(),
  profile_image_path: z.string().nullable(),
  role: z.enum(ROOM_ROLES),
  createdDate: z.string(),
});
export type ChatMessage = z.infer<typeof ChatMessageSchema>;

/** Query of the history route. */
export const ChatHistoryQuerySchema = z.object({
  before: z.coerce.number().int().positive().optional(),
  after: z.coerce.number().int().min(0).optional(),
  size: z.coerce.number().int().min(1).max(CHAT_HISTORY_MAX).default(CHAT_HISTORY_DEFAULT),
});
export type ChatHistoryQuery = z.infer<typeof ChatHistoryQuerySchema>;

/**
 * A client subscribes here to hear why one of its SENDs was refused (too long, too fast, blank, bad body, server
 * busy). A refusal does not close the connection; protocol and permission failures do, with an ERROR frame.
 */
export const CHAT_ERROR_DESTINATION = '/user/queue/errors';

/** Why a SEND was refused. */
export const CHAT_REFUSAL_CODES = [
  'too-long',
  'blank',
  'rate-limited',
  'bad-request',
  'unavailable',
  /** A teacher's action (delete, mute, slow mode, answer, pin, lower a hand) sent by a student. */
  'teacher-only',
  /** The teacher muted this student's chat and questions for a while. */
  'muted',
  /** Slow mode: one message per N seconds per student. */
  'slow-mode',
  /** A second vote on the same question or poll. */
  'already-voted',
  /** The message, question or poll named does not exist (any more) in this room. */
  'not-found',
  /** Questions and polls belong to a live session: the class is not live now. */
  'not-live',
  /** The poll was closed. */
  'closed',
] as const;
export type ChatRefusalCode = (typeof CHAT_REFUSAL_CODES)[number];

/** Body of a MESSAGE on {@link CHAT_ERROR_DESTINATION}. `receipt` repeats the refused SEND's receipt header. */
export const ChatRefusalSchema = z.object({
  code: z.enum(CHAT_REFUSAL_CODES),
  message: z.string(),
  receipt: z.string().nullable(),
});
export type ChatRefusal = z.infer<typeof ChatRefusalSchema>;

/**
 * Header of the ERROR frame a stopping API server sends every session before closing it (a restart or an
 * upgrade; the `message` header is {@link CHAT_RESTART_MESSAGE}). Its value is the longest a client should wait,
 * in milliseconds, before it reconnects: it picks a random wait up to it, so that a room's clients do not all
 * come back at once. Behind a proxy the new connection reaches another API server; the client reads what it
 * missed with the history's `?after=`, so nothing is lost or repeated. An ERROR without this header is a
 * refusal (token, membership) as before.
 */
export const CHAT_RECONNECT_HEADER = 'reconnect-within-ms';

/** The value a stopping server puts in {@link CHAT_RECONNECT_HEADER}. */
export const CHAT_RESTART_RECONNECT_MS = 2_000;

/** The `message` of a stopping server's ERROR frame. */
export const CHAT_RESTART_MESSAGE = '채팅 서버를 다시 시작해요. 잠시 후 다시 연결할게요.';
