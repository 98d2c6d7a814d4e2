import type { FastifyInstance } from 'fastify';
import {
  HAND_LOWER_DESTINATION,
  HAND_RAISE_DESTINATION,
  POLL_CLOSE_DESTINATION,
  POLL_CREATE_DESTINATION,
  POLL_REVEAL_DESTINATION,
  POLL_VOTE_DESTINATION,
  QUESTION_ANSWER_DESTINATION,
  QUESTION_ASK_DESTINATION,
  QUESTION_DELETE_DESTINATION,
  QUESTION_PIN_DESTINATION,
  QUESTION_VOTE_DESTINATION,
  REACTION_DESTINATION,
} from '@sea/contract/classroom';
import { handActions, handsEvent } from './hand-actions.ts';
import { handRoutes } from './hand-routes.ts';
import { lowerHands } from './hand-store.ts';
import { pollActions } from './poll-actions.ts';
import { pollRoutes } from './poll-routes.ts';
import { questionActions } from './question-actions.ts';
import { questionRoutes } from './question-routes.ts';
import { reactions } from './reaction-actions.ts';
import { VoteLane } from './vote-lane.ts';

/**
 * The live room as a classroom, on the chat's STOMP endpoint: questions, polls (and their list routes), reactions, raised hands. Each SEND
 * destination gets its handler on the chat broker, whose subscriptions, delivery and fan-out serve its topics.
 * Registered after the chat.
 */
export async function registerClassroom(app: FastifyInstance): Promise<void> {
  const log = (level: 'warn' | 'error', message: string, error?: unknown): void =>
    app.log[level]({ err: error }, message);
  const broker = app.roomBus;
  // One lane for the whole room's votes, poll answers and question upvotes alike.
  const votes = new VoteLane();
  const questions = questionActions({
    db: app.db,
    room: broker,
    gate: app.chatModeration,
    limiter: app.roomLimiter,
    log,
    votes,
  });
  broker.handle(QUESTION_ASK_DESTINATION, questions.ask);
  broker.handle(QUESTION_VOTE_DESTINATION, questions.vote);
  broker.handle(QUESTION_ANSWER_DESTINATION, questions.answer);
  broker.handle(QUESTION_PIN_DESTINATION, questions.pin);
  broker.handle(QUESTION_DELETE_DESTINATION, questions.delete);
  app.addHook('onClose', async () => questions.stop());
  await app.register(questionRoutes);

  const polls = pollActions({ db: app.db, room: broker, limiter: app.roomLimiter, log, votes });
  broker.handle(POLL_CREATE_DESTINATION, polls.create);
  broker.handle(POLL_VOTE_DESTINATION, polls.vote);
  broker.handle(POLL_CLOSE_DESTINATION, polls.close);
  broker.handle(POLL_REVEAL_DESTINATION, polls.reveal);
  app.addHook('onClose', async () => polls.stop());
  await app.register(pollRoutes);

  const reacting = reactions({ broker, log });
  broker.handle(REACTION_DESTINATION, reacting.handler);
  app.addHook('onClose', async () => reacting.close());

  const hands = handActions({ db: app.db, room: broker, limiter: app.roomLimiter, log });
  broker.handle(HAND_RAISE_DESTINATION, hands.raise);
  broker.handle(HAND_LOWER_DESTINATION, hands.lower);
  await app.register(handRoutes);
  // A class that is no longer live has no raised hands: the next session starts with none.
  app.events.on('sessionEnded', async (session) => {
    await lowerHands(app.db, session.classId);
    broker.publishEvent(await handsEvent(app.db, session.classId));
  });
}
