import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { RoomRole } from '@sea/contract/chat';
import type { RoomContext, SendLimiter } from './room-ports.ts';
import { NOT_A_MEMBER } from './membership-watch.ts';
import { parseJson, refuse, REFUSAL_TEXTS } from './refusals.ts';
import type { StompOutcome, StompSubscriber } from '../stomp/stomp-ports.ts';

/** A room action's body and the sender's role in its room, or the outcome that ends the SEND. */
export type Admitted<T> = { body: T; role: RoomRole } | { outcome: StompOutcome };

/**
 * The first steps of every room action: the sender's write budget when a `limiter` is given (the chat's, so
 * messages, questions, votes and hands share one), the body against its schema (a refusal), then the sender's
 * role in the room (a stranger's session ends, as for a chat message), then, for a teacher's action, the role.
 */
export async function admit<T extends { roomId: number }>(
  room: Pick<RoomContext, 'roleOf'>,
  subscriber: StompSubscriber,
  schema: z.ZodType<T>,
  text: string,
  who: 'teacher' | 'anyone',
  limiter?: SendLimiter,
): Promise<Admitted<T>> {
  if (limiter && !(await limiter.take(subscriber.userId))) {
    return { outcome: refuse('rate-limited', '너무 빨리 보내고 있어요. 잠시 후 다시 시도해 주세요.') };
  }
  const parsed = schema.safeParse(parseJson(text));
  if (!parsed.success) return { outcome: refuse('bad-request', REFUSAL_TEXTS.badRequest) };
  const role = await room.roleOf(parsed.data.roomId, subscriber.userId);
  if (role === null) return { outcome: { type: 'fatal', message: NOT_A_MEMBER } };
  if (who === 'teacher' && role !== 'teacher') {
    return { outcome: refuse('teacher-only', REFUSAL_TEXTS.teacherOnly) };
  }
  return { body: parsed.data, role };
}

/** A fresh id for a room event (its repeats through the fan-out are dropped by it). */
export function eventId(kind: string): string {
  return `${kind}-${randomUUID()}`;
}
