import type { FastifyInstance } from 'fastify';
import { CHAT_SEND_DESTINATION } from '@sea/contract/chat';
import type * as Classroom from '@sea/contract/classroom';
import { MODERATION_TOPIC_PREFIX } from '@sea/contract/classroom';
import { ROUTES } from '@sea/contract/paths';
import { bindRoomActions, type RoomActions, type SendDestinationOf } from '../room-bus/room-action.ts';
import { CatchUp } from './catch-up.ts';
import { ChatMessages, chatEvent } from './chat-messages.ts';
import { chatRoutes } from './chat-routes.ts';
import { DatabaseMessageLog } from './message-log.ts';
import { moderationActions, moderationState } from './moderation-actions.ts';
import { DatabaseModeration } from './moderation-store.ts';

/** The chat's own room actions: the SEND destinations of the contract under `/app/chat/`. */
type ModerationDestination = Extract<SendDestinationOf<typeof Classroom>, `/app/chat/${string}`>;

declare module 'fastify' {
  interface FastifyInstance {
    /** Mutes and slow mode of the rooms (the classroom's questions also refuse a muted student). */
    chatModeration: DatabaseModeration;
  }
}

/**
 * The chat, on the room bus (registered before it): messages (`/app/hello`, stored, then published on
 * `/topic/greetings/{classId}` and re-read after a fan-out outage), the teacher's moderation, and the history
 * route.
 */
export async function registerChat(app: FastifyInstance): Promise<void> {
  const log = (level: 'warn' | 'error', message: string, error?: unknown): void =>
    app.log[level]({ err: error }, message);
  const bus = app.roomBus;
  const messages = new DatabaseMessageLog({ db: app.db, imageUrl: (key) => `${ROUTES.uploads}/${key}` });
  const moderation = new DatabaseModeration(app.db);
  app.decorate('chatModeration', moderation);
  bus.handle(
    CHAT_SEND_DESTINATION,
    new ChatMessages({ room: bus, messages, limiter: app.roomLimiter, gate: moderation, log }),
  );
  // What other instances stored while the fan-out was away is read back from the database.
  bus.onOutage(
    new CatchUp({
      messages,
      roomIds: () => bus.roomIds(),
      deliver: (message) => bus.deliverEvent(chatEvent(message)),
      log,
      now: Date.now,
    }),
  );

  const moderating: RoomActions<ModerationDestination> = moderationActions({
    room: bus,
    messages,
    moderation,
  });
  bindRoomActions(bus, moderating, { log });
  bus.greet(MODERATION_TOPIC_PREFIX, moderationState(moderation));
  // A mute or slow mode set on any instance: this one reads the room's moderation again for its next message.
  bus.intercept(MODERATION_TOPIC_PREFIX, (event) => {
    moderation.forget(Number(event.destination.slice(MODERATION_TOPIC_PREFIX.length)));
    bus.deliverLocally(event);
  });
  await app.register(chatRoutes(messages));
}
