import {
  MAX_POLL_OPTION_LENGTH,
  POLL_CLOSE_DESTINATION,
  POLL_CREATE_DESTINATION,
  POLL_REVEAL_DESTINATION,
  POLL_VOTE_DESTINATION,
  MAX_POLL_QUESTION_LENGTH,
  PollActionSchema,
  PollCreateSchema,
  PollVoteSchema,
  pollTopic,
} from '@sea/contract/classroom';
import { hasControlCharacter } from '@sea/contract/text';
import { fitsLength } from '@sea/contract/text-length';
import type { RoomContext, RoomEvent, RoomLog } from '../room-bus/room-ports.ts';
import { refuse, REFUSAL_TEXTS } from '../room-bus/refusals.ts';
import { eventId, OK, roomAction } from '../room-bus/room-action.ts';
import type { Database } from '../db/database.ts';
import { openSessionOf } from '../sessions/session-store.ts';
import { LatestStateThrottle } from './latest-state-throttle.ts';
import { VoteBatches } from './vote-batches.ts';
import {
  closeSessionPolls,
  createPoll,
  findPoll,
  findPollHeads,
  isOpen,
  markPoll,
  pollAs,
  votePolls,
  type PollHead,
  type PollRow,
} from '../sessions/poll-store.ts';
import type { StompOutcome } from '../stomp/stomp-ports.ts';

export interface PollActionsOptions {
  db: Database;
  room: Pick<RoomContext, 'publishEvent'>;
  log: RoomLog;
}

/** A poll's answers reach the members at most this often (the whole new state each time), as reactions do. */
const POLL_UPDATES_PER_SECOND = 4;
const POLL_NOT_FOUND = '없는 투표예요.';

/** A poll's new state: results for the teacher, for students only once revealed. */
export function pollEvent(row: PollRow): RoomEvent {
  return {
    destination: pollTopic(row.classId),
    id: eventId('poll'),
    body: pollAs(row, { teacher: true }),
    student: pollAs(row, { teacher: false }),
  };
}

/** The poll's question and options, trimmed and checked; a Korean refusal when one is not fit. */
function checkPoll(
  question: string,
  options: string[],
  multiple: boolean,
  correct: number[] | null,
): StompOutcome | null {
  const texts = [question, ...options];
  if (texts.some((text) => text.length === 0)) return refuse('blank', '질문과 보기를 모두 입력해 주세요.');
  if (texts.some((text) => hasControlCharacter(text, true)))
    return refuse('bad-request', REFUSAL_TEXTS.badRequest);
  if (!fitsLength(question, MAX_POLL_QUESTION_LENGTH)) {
    return refuse('too-long', `투표 질문은 ${MAX_POLL_QUESTION_LENGTH}자까지 쓸 수 있어요.`);
  }
  if (options.some((option) => !fitsLength(option, MAX_POLL_OPTION_LENGTH))) {
    return refuse('too-long', `보기는 ${MAX_POLL_OPTION_LENGTH}자까지 쓸 수 있어요.`);
  }
  if (correct && (correct.some((index) => index >= options.length) || (!multiple && correct.length !== 1))) {
    return refuse('bad-request', '정답은 보기 중에서 골라 주세요 (하나만 고르는 퀴즈는 정답도 하나예요).');
  }
  return null;
}

/** A student's answer on its way to the database: the options picked, without repeats, in order. */
type Answer = { roomId: number; pollId: number; userId: string; chosen: number[] };

/** Why the answer is refused by the poll as it stands, or null when it may be stored. */
function answerRefusal(answer: Answer, poll: PollHead | undefined): StompOutcome | null {
  if (!poll || poll.classId !== answer.roomId) return refuse('not-found', POLL_NOT_FOUND);
  if (!isOpen(poll)) return refuse('closed', '마감된 투표예요.');
  const { chosen } = answer;
  if (chosen.some((index) => index >= poll.options.length) || (!poll.multiple && chosen.length !== 1)) {
    return refuse('bad-request', poll.multiple ? '보기 중에서 골라 주세요.' : '보기 하나를 골라 주세요.');
  }
  return null;
}

/** A batch of answers in two statements: their polls read, then those that fit stored; an outcome each. */
async function storeAnswers(db: Database, answers: readonly Answer[]): Promise<StompOutcome[]> {
  const polls = await findPollHeads(
    db,
    answers.map((answer) => answer.pollId),
  );
  const refusals = answers.map((answer) => answerRefusal(answer, polls.get(answer.pollId)));
  const fit = answers.filter((_, i) => refusals[i] === null);
  const stored = await votePolls(
    db,
    fit.map(({ pollId, userId, chosen }) => ({ pollId, userId, options: chosen })),
  );
  let next = 0;
  return refusals.map(
    (refusal) =>
      refusal ?? (stored[next++] === 'voted' ? OK : refuse('already-voted', '이미 답한 투표예요.')),
  );
}

/**
 * Polls and quizzes, one action per destination: the teacher starts one (`/app/polls`, while live), closes it
 * and reveals its results (which closes it too); students answer once (`/app/polls/vote`) while it is open,
 * and the end of the session closes it. Stored first; then the poll's new state
 * goes to `/topic/polls/{classId}` on every instance: at once for the teacher's actions, at most
 * {@link POLL_UPDATES_PER_SECOND} times a second per poll for answers. `stop` ends the pending updates of
 * answers (the server is closing).
 */
export function pollActions(options: PollActionsOptions) {
  const { db, room, log } = options;
  // A class answering in the same second goes to the database in a few batches (vote-batches.ts).
  const answers = new VoteBatches((batch: readonly Answer[]) => storeAnswers(db, batch));
  const updates = new LatestStateThrottle<number>({ perSecond: POLL_UPDATES_PER_SECOND, log });
  /** `throttled` for answers' updates: they may wait a moment to go with other news (room-ports.ts). */
  const publishPoll = async (roomId: number, pollId: number, throttled = false): Promise<void> => {
    const row = await findPoll(db, roomId, pollId);
    if (!row) return;
    const event = pollEvent(row);
    if (throttled) event.throttled = true;
    room.publishEvent(event);
  };
  const mark = (which: 'close' | 'reveal') =>
    roomAction({
      name: `poll ${which}`,
      admit: { schema: PollActionSchema, who: 'teacher' },
      async act({ body: { roomId, pollId } }) {
        if (!(await markPoll(db, roomId, pollId, which))) return refuse('not-found', POLL_NOT_FOUND);
        // After any update of answers in progress, so that the last state published is the closed one.
        updates.changedNow(pollId, () => publishPoll(roomId, pollId));
        return OK;
      },
    });

  const actions = {
    [POLL_CREATE_DESTINATION]: roomAction({
      name: 'poll create',
      admit: { schema: PollCreateSchema, who: 'teacher' },
      async act({ body }) {
        const { roomId, multiple } = body;
        const question = body.question.trim();
        const choices = body.options.map((option) => option.trim());
        const correct = body.correct ? [...new Set(body.correct)].sort((a, b) => a - b) : null;
        const problem = checkPoll(question, choices, multiple, correct);
        if (problem) return problem;
        const sessionId = await openSessionOf(db, roomId);
        if (sessionId === null) return refuse('not-live', '라이브 수업 중에만 투표를 시작할 수 있어요.');
        const poll = { sessionId, classId: roomId, question, options: choices, multiple, correct };
        room.publishEvent(pollEvent(await createPoll(db, poll)));
        return OK;
      },
    }),
    [POLL_VOTE_DESTINATION]: roomAction({
      name: 'poll vote',
      admit: { schema: PollVoteSchema, who: 'anyone', limited: true },
      async act({ body: { roomId, pollId, options: picked }, userId, role }) {
        if (role === 'teacher') return refuse('bad-request', '투표는 수강생만 할 수 있어요.');
        const chosen = [...new Set(picked)].sort((a, b) => a - b);
        const outcome = await answers.add({ roomId, pollId, userId, chosen });
        if (outcome.type !== 'ok') return outcome;
        // Two hundred answers in a second make a few updates, not two hundred for every member.
        updates.changed(pollId, () => publishPoll(roomId, pollId, true));
        return OK;
      },
    }),
    [POLL_CLOSE_DESTINATION]: mark('close'),
    [POLL_REVEAL_DESTINATION]: mark('reveal'),
  };
  /** The session ended: its open polls close, and the room sees them closed. */
  const sessionEnded = async (session: { id: number; classId: number }): Promise<void> => {
    for (const pollId of await closeSessionPolls(db, session.id)) {
      updates.changedNow(pollId, () => publishPoll(session.classId, pollId));
    }
  };
  return { actions, sessionEnded, stop: () => updates.close() };
}
