import {
  MAX_QUESTION_LENGTH,
  QuestionActionSchema,
  QuestionAskSchema,
  questionTopic,
  type QuestionEvent,
} from '@sea/contract/classroom';
import { hasControlCharacter, TEXT_MESSAGES } from '@sea/contract/text';
import { fitsLength } from '@sea/contract/text-length';
import type { RoomLog, RoomContext, RoomEvent, SendHandler, SendLimiter } from '../room-bus/room-ports.ts';
import type { ChatGate } from '../chat/moderation-store.ts';
import { gateRefusal } from '../chat/gate-refusal.ts';
import { refuse, REFUSAL_TEXTS } from '../room-bus/refusals.ts';
import { admit, eventId } from '../room-bus/room-action.ts';
import type { Database } from '../db/database.ts';
import { openSessionOf } from '../sessions/session-store.ts';
import { LatestStateThrottle } from './latest-state-throttle.ts';
import { VoteLane } from './vote-lane.ts';
import {
  askQuestion,
  deleteQuestion,
  findQuestion,
  questionAs,
  toggleQuestion,
  voteQuestion,
  type QuestionRow,
} from './question-store.ts';
import type { StompOutcome, StompSubscriber } from '../stomp/stomp-ports.ts';

export interface QuestionActionsOptions {
  db: Database;
  room: RoomContext;
  gate: Pick<ChatGate, 'mutedUntil'>;
  /** The chat's write budget, for asking and voting. */
  limiter?: SendLimiter;
  log: RoomLog;
  /** The lane upvotes take to the database (shared with poll answers); one of their own by default. */
  votes?: VoteLane;
  now?: () => number;
}

const OK: StompOutcome = { type: 'ok' };
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
 * The questions of a live session, one handler per destination: ask (`/app/questions`, members not muted, while
 * the class is live), upvote once (`/app/questions/vote`), and the teacher's answer, pin and delete. Stored
 * first, then each change goes to `/topic/questions/{classId}` on every instance: at once for a new question
 * and the teacher's actions, at most {@link QUESTION_UPDATES_PER_SECOND} times a second per question for votes.
 */
export function questionActions(options: QuestionActionsOptions): {
  ask: SendHandler;
  vote: SendHandler;
  answer: SendHandler;
  pin: SendHandler;
  delete: SendHandler;
  /** Stops the pending updates of votes (the server is closing). */
  stop: () => void;
} {
  const { db, room, gate, log, limiter } = options;
  const votes = options.votes ?? new VoteLane();
  const now = options.now ?? Date.now;
  const failed = (what: string, error: unknown): StompOutcome => {
    log('error', `question ${what} failed`, error);
    return refuse('unavailable', REFUSAL_TEXTS.unavailable);
  };
  const updates = new LatestStateThrottle<number>({ perSecond: QUESTION_UPDATES_PER_SECOND, log });
  const publishQuestion = async (roomId: number, questionId: number): Promise<void> => {
    const row = await findQuestion(db, roomId, questionId);
    if (row) room.publishEvent(questionEvent(row));
  };
  const toggle = (mark: 'answered' | 'pinned'): SendHandler => ({
    async send(subscriber: StompSubscriber, text: string): Promise<StompOutcome> {
      const admitted = await admit(room, subscriber, QuestionActionSchema, text, 'teacher');
      if ('outcome' in admitted) return admitted.outcome;
      const { roomId, questionId } = admitted.body;
      let row: QuestionRow | null;
      try {
        row = await toggleQuestion(db, roomId, questionId, mark);
      } catch (error) {
        return failed(mark, error);
      }
      if (!row) return refuse('not-found', QUESTION_NOT_FOUND);
      // After any update of votes in progress, so that the last state published has the mark.
      updates.changedNow(questionId, () => publishQuestion(roomId, questionId));
      return OK;
    },
  });

  return {
    ask: {
      async send(subscriber: StompSubscriber, text: string): Promise<StompOutcome> {
        const admitted = await admit(room, subscriber, QuestionAskSchema, text, 'anyone', limiter);
        if ('outcome' in admitted) return admitted.outcome;
        const { roomId, anonymous } = admitted.body;
        const content = admitted.body.content.trim();
        if (content.length === 0) return refuse('blank', '빈 질문은 보낼 수 없어요.');
        if (hasControlCharacter(content, true)) return refuse('bad-request', TEXT_MESSAGES.control);
        if (!fitsLength(content, MAX_QUESTION_LENGTH)) {
          return refuse('too-long', `질문은 ${MAX_QUESTION_LENGTH}자까지 보낼 수 있어요.`);
        }
        const question = { classId: roomId, userId: subscriber.userId, content, anonymous };
        const student = admitted.role === 'student';
        let row: QuestionRow | null = null;
        try {
          // Stored in one round trip; when nothing was, the reason is looked up (rare). A mute that ran out
          // between the two is asked again once.
          for (let attempt = 0; attempt < 2; attempt++) {
            row = await askQuestion(db, { ...question, mutedAt: student ? new Date(now()) : null });
            if (row !== null) break;
            const until = student ? await gate.mutedUntil(roomId, subscriber.userId) : null;
            if (until) return gateRefusal({ type: 'muted', until }, now());
            if ((await openSessionOf(db, roomId)) === null) return NOT_LIVE;
          }
        } catch (error) {
          return failed('ask', error);
        }
        if (row === null) return NOT_LIVE;
        room.publishEvent(questionEvent(row));
        return OK;
      },
    },
    vote: {
      async send(subscriber: StompSubscriber, text: string): Promise<StompOutcome> {
        const admitted = await admit(room, subscriber, QuestionActionSchema, text, 'anyone', limiter);
        if ('outcome' in admitted) return admitted.outcome;
        const { roomId, questionId } = admitted.body;
        let outcome: Awaited<ReturnType<typeof voteQuestion>>;
        try {
          outcome = await votes.run(() => voteQuestion(db, roomId, questionId, subscriber.userId));
        } catch (error) {
          return failed('vote', error);
        }
        if (outcome === 'not-found') return refuse('not-found', QUESTION_NOT_FOUND);
        if (outcome === 'already-voted') return refuse('already-voted', '이미 추천한 질문이에요.');
        // A popular question upvoted by hundreds at once makes a few updates, not one per vote per member.
        updates.changed(questionId, () => publishQuestion(roomId, questionId));
        return OK;
      },
    },
    answer: toggle('answered'),
    pin: toggle('pinned'),
    delete: {
      async send(subscriber: StompSubscriber, text: string): Promise<StompOutcome> {
        const admitted = await admit(room, subscriber, QuestionActionSchema, text, 'teacher');
        if ('outcome' in admitted) return admitted.outcome;
        const { roomId, questionId } = admitted.body;
        try {
          if (!(await deleteQuestion(db, roomId, questionId))) return refuse('not-found', QUESTION_NOT_FOUND);
        } catch (error) {
          return failed('delete', error);
        }
        const event: QuestionEvent = { type: 'questionDeleted', roomId, questionId };
        // After any update of votes in progress: a state read before the deletion must not follow it.
        updates.changedNow(questionId, async () =>
          room.publishEvent({ destination: questionTopic(roomId), id: eventId('question'), body: event }),
        );
        return OK;
      },
    },
    stop: () => updates.close(),
  };
}
