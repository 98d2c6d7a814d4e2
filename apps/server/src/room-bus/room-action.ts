import { randomUUID } from 'node:crypto';
import type { z } from 'zod';
import type { RoomRole } from '@sea/contract/chat';
import type { StompOutcome, StompSubscriber } from '../stomp/stomp-ports.ts';
import { NOT_A_MEMBER } from './membership-watch.ts';
import { parseJson, refuse, REFUSAL_TEXTS } from './refusals.ts';
import type { RoomContext, RoomLog, SendHandler, SendLimiter } from './room-ports.ts';

/** What an action answers when it was done: the SEND's RECEIPT. */
export const OK: StompOutcome = { type: 'ok' };

/** A SEND that was admitted: its body, its sender, and the sender's role in the room. */
export type Admitted<T> = { body: T; userId: string; role: RoomRole };

/**
 * One room action (a question asked, a hand raised, a student muted...), in three steps. `admit` says what the
 * SEND must carry and who may send it; the bus checks the write budget (`limited`: the one messages, questions,
 * votes and hands share), the body against `schema`, the sender's membership (a stranger's session ends, as for
 * a chat message) and, for a teacher's action, the role. `act` stores, then publishes, and answers how it went:
 * ok (the RECEIPT) or a refusal. A failure it throws is answered as `unavailable` and logged as `<name> failed`.
 */
export interface RoomAction<T extends { roomId: number }> {
  readonly name: string;
  readonly admit: { schema: z.ZodType<T>; who: 'teacher' | 'anyone'; limited?: boolean };
  act(sent: Admitted<T>): Promise<StompOutcome>;
}

/** Names a room action's body type from its schema (`act` then reads a typed body). */
export function roomAction<T extends { roomId: number }>(action: RoomAction<T>): RoomAction<T> {
  return action;
}

/** Room actions by SEND destination: a module's table of contents of what members can do in a room. */
export type RoomActions<D extends string> = { readonly [K in D]: RoomAction<{ roomId: number }> };

/**
 * The SEND destinations (`/app/...`) a contract module names, from its exports: a table typed with them does
 * not compile until each destination has its action.
 */
export type SendDestinationOf<M> = {
  [K in keyof M]: M[K] extends `/app/${string}` ? M[K] : never;
}[keyof M];

/** The room bus as the actions are bound to it. */
export type ActionBus = Pick<RoomContext, 'roleOf'> & {
  handle(destination: string, handler: SendHandler): void;
};

/** Binds each action of `actions` to its destination on the bus. */
export function bindRoomActions<D extends string>(
  bus: ActionBus,
  actions: RoomActions<D>,
  tools: { limiter?: SendLimiter | undefined; log: RoomLog },
): void {
  for (const destination of Object.keys(actions) as D[]) {
    bus.handle(destination, actionHandler(bus, actions[destination], tools));
  }
}

/** A room action as the handler of its SENDs: admit, act, answer. */
export function actionHandler<T extends { roomId: number }>(
  room: Pick<RoomContext, 'roleOf'>,
  action: RoomAction<T>,
  tools: { limiter?: SendLimiter | undefined; log: RoomLog },
): SendHandler {
  const { schema, who, limited } = action.admit;
  return {
    async send(subscriber: StompSubscriber, text: string): Promise<StompOutcome> {
      const admitted = await admit(room, subscriber, schema, text, who, limited ? tools.limiter : undefined);
      if ('outcome' in admitted) return admitted.outcome;
      try {
        return await action.act({ body: admitted.body, userId: subscriber.userId, role: admitted.role });
      } catch (error) {
        tools.log('error', `${action.name} failed`, error);
        return refuse('unavailable', REFUSAL_TEXTS.unavailable);
      }
    },
  };
}

async function admit<T extends { roomId: number }>(
  room: Pick<RoomContext, 'roleOf'>,
  subscriber: StompSubscriber,
  schema: z.ZodType<T>,
  text: string,
  who: 'teacher' | 'anyone',
  limiter?: SendLimiter,
): Promise<{ body: T; role: RoomRole } | { outcome: StompOutcome }> {
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
