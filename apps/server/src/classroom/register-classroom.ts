import type { FastifyInstance } from 'fastify';
import type * as Classroom from '@sea/contract/classroom';
import { bindRoomActions, type RoomActions, type SendDestinationOf } from '../room-bus/room-action.ts';
import { handActions, handsEvent } from './hand-actions.ts';
import { handRoutes } from './hand-routes.ts';
import { lowerHands } from './hand-store.ts';
import { pollActions } from './poll-actions.ts';
import { pollRoutes } from './poll-routes.ts';
import { questionActions } from './question-actions.ts';
import { questionRoutes } from './question-routes.ts';
import { reactions } from './reaction-actions.ts';

/** The classroom's room actions: every SEND destination of the contract but the chat's own (`/app/chat/`). */
type ClassroomDestination = Exclude<SendDestinationOf<typeof Classroom>, `/app/chat/${string}`>;

/**
 * The live room as a classroom, on the room bus: questions, polls (and their list routes), reactions, raised
 * hands. Each SEND destination gets its action on the bus, whose subscriptions, delivery and fan-out serve its
 * topics. Registered after the chat (the questions refuse a muted student).
 */
export async function registerClassroom(app: FastifyInstance): Promise<void> {
  const log = (level: 'warn' | 'error', message: string, error?: unknown): void =>
    app.log[level]({ err: error }, message);
  const bus = app.roomBus;
  const questions = questionActions({ db: app.db, room: bus, gate: app.chatModeration, log });
  app.addHook('onClose', async () => questions.stop());
  const polls = pollActions({ db: app.db, room: bus, log });
  app.addHook('onClose', async () => polls.stop());
  const reacting = reactions({ broker: bus, log });
  app.addHook('onClose', async () => reacting.close());
  // The table of contents of the classroom's actions: a new destination in the contract needs its action here.
  const actions: RoomActions<ClassroomDestination> = {
    ...questions.actions,
    ...polls.actions,
    ...reacting.actions,
    ...handActions({ db: app.db, room: bus }),
  };
  bindRoomActions(bus, actions, { limiter: app.roomLimiter, log });

  await app.register(questionRoutes);
  await app.register(pollRoutes);
  await app.register(handRoutes);
  // A class that is no longer live has no raised hands (the next session starts with none) and no open poll.
  app.events.on('sessionEnded', async (session) => {
    await lowerHands(app.db, session.classId);
    bus.publishEvent(await handsEvent(app.db, session.classId));
    await polls.sessionEnded(session);
  });
}
