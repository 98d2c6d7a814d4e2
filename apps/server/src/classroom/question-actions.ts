import {
  MAX_QUESTION_LENGTH,
  QUESTION_ANSWER_DESTINATION,
  QUESTION_ASK_DESTINATION,
  QUESTION_DELETE_DESTINATION,
  QUESTION_PIN_DESTINATION,
  QUESTION_VOTE_DESTINATION,
  QuestionActionSchema,
  QuestionAskSchema,
  questionTopic,
  type QuestionEvent,
} from '@sea/contract/classroom';
import { hasControlCharacter, TEXT_MESSAGES } from '@sea/contract/text';
import { fitsLength } from '@sea/contract/text-length';
import type { RoomContext, RoomEvent, RoomLog } from '../room-bus/room-ports.ts';
import type { ChatGate } from '../chat/moderation-store.ts';
import { gateRefusal } from '../chat/gate-refusal.ts';
import { refuse } from '../room-bus/refusals.ts';
import { eventId, OK, roomAction } from '../room-bus/room-action.ts';
import type { Database } from '../db/database.ts';
import { openSessionOf } from '../sessions/session-store.ts';
import { LatestStateThrottle } from './latest-state-throttle.ts';
import { VoteBatches } from './vote-batches.ts';
import {
  askQuestion,
  deleteQuestion,
  findQuestion,
  questionAs,
  toggleQuestion,
  voteQuestions,
  type QuestionRow,
  type QuestionVote,
} from '../sessions/question-store.ts';

export interface QuestionActionsOptions {
  db: Database;
  room: Pick<RoomContext, 'publishEvent'>;
  gate: Pick<ChatGate, 'mutedUntil'>;
  log: RoomLog;
  now?: () => number;
}

/** A question's votes reach the members at most this often (its whole state each time), as poll answers do. */
const QUESTION_UPDATES_PER_SECOND = 4;
const QUESTION_NOT_FOUND = '이미 삭제되었거나 없는 질문이에요.';
const NOT_LIVE = refuse('not-live', '라이브 수업 중에만 질문할 수 있어요.');

/** A question's new state for the room: the teacher and the asker see its author, other students maybe not. */
export function questionEvent(row: QuestionRow): RoomEvent {
  const as = (userId: string, role: 'teacher' | 'student'): QuestionEvent => ({
    type: 'question',
    question: questionAs(row, { userId, role }),
  });
  const event: RoomEvent = {
    destination: questionTopic(row.classId),
    id: eventId('question'),
    body: as('', 'teacher'),
    student: as('', 'student'),
  };
  if (row.userId !== null) event.own = { userIds: [row.userId], body: as(row.userId, 'student') };
  return event;
}

/**
 * The questions of a live session, one action per destination: ask (`/app/questions`, members not muted, while
 * the class is live), upvote once (`/app/questions/vote`), and the teacher's answer, pin and delete. Stored
 * first, then each change goes to `/topic/questions/{classId}` on every instance: at once for a new question
 * and the teacher's actions, at most {@link QUESTION_UPDATES_PER_SECOND} times a second per question for votes.
 * `stop` ends the pending updates of votes (the server is closing).
 */
export function questionActions(options: QuestionActionsOptions) {
  const { db, room, gate, log } = options;
  // Hundreds upvoting in the same second go to the database in a few batches (vote-batches.ts).
  const votes = new VoteBatches((batch: readonly QuestionVote[]) => voteQuestions(db, batch));
  const now = options.now ?? Date.now;
  const updates = new LatestStateThrottle<number>({ perSecond: QUESTION_UPDATES_PER_SECOND, log });
  /** `throttled` for votes' updates: they may wait a moment to go with other news (room-ports.ts). */
  const publishQuestion = async (roomId: number, questionId: number, throttled = false): Promise<void> => {
    const row = await findQuestion(db, roomId, questionId);
    if (!row) return;
    const event = questionEvent(row);
    if (throttled) event.throttled = true;
    room.publishEvent(event);
  };
  const toggle = (mark: 'answered' | 'pinned') =>
    roomAction({
      name: `question ${mark}`,
      admit: { schema: QuestionActionSchema, who: 'teacher' },
      async act({ body: { roomId, questionId } }) {
        if (!(await toggleQuestion(db, roomId, questionId, mark)))
          return refuse('not-found', QUESTION_NOT_FOUND);
        // After any update of votes in progress, so that the last state published has the mark.
        updates.changedNow(questionId, () => publishQuestion(roomId, questionId));
        return OK;
      },
    });

  const actions = {
    [QUESTION_ASK_DESTINATION]: roomAction({
      name: 'question ask',
      admit: { schema: QuestionAskSchema, who: 'anyone', limited: true },
      async act({ body: { roomId, anonymous, content: text }, userId, role }) {
        const content = text.trim();
        if (content.length === 0) return refuse('blank', '빈 질문은 보낼 수 없어요.');
        if (hasControlCharacter(content, true)) return refuse('bad-request', TEXT_MESSAGES.control);
        if (!fitsLength(content, MAX_QUESTION_LENGTH)) {
          return refuse('too-long', `질문은 ${MAX_QUESTION_LENGTH}자까지 보낼 수 있어요.`);
        }
        const question = { classId: roomId, userId, content, anonymous };
        const student = role === 'student';
        // Stored in one round trip; when nothing was, the reason is looked up (rare). A mute that ran out
        // between the two is asked again once.
        for (let attempt = 0; attempt < 2; attempt++) {
          const row = await askQuestion(db, { ...question, mutedAt: student ? new Date(now()) : null });
          if (row !== null) {
            room.publishEvent(questionEvent(row));
            return OK;
          }
          const until = student ? await gate.mutedUntil(roomId, userId) : null;
          if (until) return gateRefusal({ type: 'muted', until }, now());
          if ((await openSessionOf(db, roomId)) === null) return NOT_LIVE;
        }
        return NOT_LIVE;
      },
    }),
    [QUESTION_VOTE_DESTINATION]: roomAction({
      name: 'question vote',
      admit: { schema: QuestionActionSchema, who: 'anyone', limited: true },
      async act({ body: { roomId, questionId }, userId }) {
        const outcome = await votes.add({ classId: roomId, questionId, userId });
        if (outcome === 'not-found') return refuse('not-found', QUESTION_NOT_FOUND);
        if (outcome === 'already-voted') return refuse('already-voted', '이미 추천한 질문이에요.');
        // A popular question upvoted by hundreds at once makes a few updates, not one per vote per member.
        updates.changed(questionId, () => publishQuestion(roomId, questionId, true));
        return OK;
      },
    }),
    [QUESTION_ANSWER_DESTINATION]: toggle('answered'),
    [QUESTION_PIN_DESTINATION]: toggle('pinned'),
    [QUESTION_DELETE_DESTINATION]: roomAction({
      name: 'question delete',
      admit: { schema: QuestionActionSchema, who: 'teacher' },
      async act({ body: { roomId, questionId } }) {
        if (!(await deleteQuestion(db, roomId, questionId))) return refuse('not-found', QUESTION_NOT_FOUND);
        const event: QuestionEvent = { type: 'questionDeleted', roomId, questionId };
        // After any update of votes in progress: a state read before the deletion must not follow it.
        updates.changedNow(questionId, async () =>
          room.publishEvent({ destination: questionTopic(roomId), id: eventId('question'), body: event }),
        );
        return OK;
      },
    }),
  };
  return { actions, stop: () => updates.close() };
}
