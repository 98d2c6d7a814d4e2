import type { FastifyInstance } from 'fastify';
import {
  QUESTION_ANSWER_DESTINATION,
  QUESTION_ASK_DESTINATION,
  QUESTION_DELETE_DESTINATION,
  QUESTION_PIN_DESTINATION,
  QUESTION_VOTE_DESTINATION,
} from '@sea/contract/classroom';
import { questionActions } from './question-actions.ts';
import { questionRoutes } from './question-routes.ts';

/**
 * The live room as a classroom, on the chat's STOMP endpoint: questions (and the list route). Each SEND
 * destination gets its handler on the chat broker, whose subscriptions, delivery and fan-out serve its topics.
 * Registered after the chat.
 */
export async function registerClassroom(app: FastifyInstance): Promise<void> {
  const log = (level: 'warn' | 'error', message: string, error?: unknown): void =>
    app.log[level]({ err: error }, message);
  const broker = app.chatBroker;
  const questions = questionActions({ db: app.db, room: broker, gate: app.chatModeration, log });
  broker.handle(QUESTION_ASK_DESTINATION, questions.ask);
  broker.handle(QUESTION_VOTE_DESTINATION, questions.vote);
  broker.handle(QUESTION_ANSWER_DESTINATION, questions.answer);
  broker.handle(QUESTION_PIN_DESTINATION, questions.pin);
  broker.handle(QUESTION_DELETE_DESTINATION, questions.delete);
  await app.register(questionRoutes);
}
