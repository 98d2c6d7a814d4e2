import { useCallback } from 'react';
import {
  compareQuestions,
  questionTopic,
  QUESTION_ANSWER_DESTINATION,
  QUESTION_ASK_DESTINATION,
  QUESTION_DELETE_DESTINATION,
  QUESTION_PIN_DESTINATION,
  QUESTION_VOTE_DESTINATION,
  type Question,
  type QuestionEvent,
} from '@sea/contract/classroom';
import { fetchQuestions } from './api/fetch-questions.ts';
import type { RoomConnection } from '../../lib/realtime/room-connection.ts';
import { useRoomState } from './use-room-state.ts';

export type QuestionsView = {
  /** Pinned first, then by votes, then the oldest. */
  questions: readonly Question[];
  ask: (content: string, anonymous: boolean) => boolean;
  vote: (questionId: number) => void;
  /** Teacher: toggles answered, toggles pinned, deletes. */
  answer: (questionId: number) => void;
  pin: (questionId: number) => void;
  remove: (questionId: number) => void;
};

const NONE: readonly Question[] = [];

/** The questions of the live session, from the list route and then the questions topic. */
export function useQuestions(connection: RoomConnection | null, classId: number): QuestionsView {
  const [questions, change] = useRoomState<readonly Question[]>(
    connection,
    questionTopic(classId),
    NONE,
    async () => [...(await fetchQuestions(classId)).questions].sort(compareQuestions),
    applyQuestionEvent,
  );
  const act = useCallback(
    (destination: string, questionId: number) => connection?.publish(destination, { questionId }),
    [connection],
  );
  const vote = useCallback(
    (questionId: number) => {
      // The topic carries everyone's copy (voted: false): my own vote is kept here.
      if (act(QUESTION_VOTE_DESTINATION, questionId)) {
        change((list) => list.map((q) => (q.id === questionId ? { ...q, voted: true } : q)));
      }
    },
    [act, change],
  );
  return {
    questions,
    ask: (content, anonymous) =>
      connection?.publish(QUESTION_ASK_DESTINATION, { content, anonymous }) ?? false,
    vote,
    answer: (questionId) => void act(QUESTION_ANSWER_DESTINATION, questionId),
    pin: (questionId) => void act(QUESTION_PIN_DESTINATION, questionId),
    remove: (questionId) => void act(QUESTION_DELETE_DESTINATION, questionId),
  };
}

/** A question event applied to the list: a new or changed question (keeping my vote), or one deleted. */
export function applyQuestionEvent(list: readonly Question[], body: unknown): readonly Question[] {
  const event = body as QuestionEvent;
  if (event.type === 'questionDeleted') return list.filter((q) => q.id !== event.questionId);
  if (event.type !== 'question') return list;
  const known = list.find((q) => q.id === event.question.id);
  const next = { ...event.question, voted: known?.voted ?? false };
  return [...list.filter((q) => q.id !== next.id), next].sort(compareQuestions);
}
