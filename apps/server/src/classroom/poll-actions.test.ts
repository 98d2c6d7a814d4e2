import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  POLL_CLOSE_DESTINATION,
  POLL_CREATE_DESTINATION,
  POLL_REVEAL_DESTINATION,
  POLL_VOTE_DESTINATION,
  pollTopic,
  type Poll,
  type PollList,
} from '@sea/contract/classroom';
import { bearer, type TestUser } from '../../test/helper.ts';
import { type Join, roomActionsUnderTest } from '../../test/room-actions.ts';
import { createChatClass, eventually } from '../../test/chat-clients.ts';
import { endLiveSession, enrolStudent, openLiveSession } from '../../test/classroom.ts';
import { findPollHeads, votePolls } from '../sessions/poll-store.ts';

const { app: built, joined, overSocket, overSockJs } = roomActionsUnderTest();
let app: FastifyInstance;
beforeAll(() => {
  app = built();
});

async function list(user: TestUser, classId: number, query = ''): Promise<PollList> {
  const response = await app.inject({ url: `/api/classes/${classId}/polls${query}`, headers: bearer(user) });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: PollList }>().data;
}

async function liveClass(join: Join = joined) {
  const chat = await createChatClass(app);
  const other = await enrolStudent(app, chat.classId);
  const sessionId = await openLiveSession(app, chat.classId);
  const teacher = await join(chat.teacher, chat.classId);
  const first = await join(chat.student, chat.classId);
  const second = await join(other, chat.classId);
  const topic = pollTopic(chat.classId);
  const seen = {
    teacher: (await teacher.watch(topic)) as Poll[],
    first: (await first.watch(topic)) as Poll[],
  };
  return { ...chat, other, sessionId, clients: { teacher, first, second }, seen };
}

const QUIZ = { question: '2 + 2는?', options: ['3', '4', '5'], multiple: false, correct: [1] };

describe('polls and quizzes', () => {
  it('counts one answer per student, live for the teacher, for students once revealed', async () => {
    // Over real sockets: the other cases act on the room bus at the handler.
    const { classId, teacher, student, clients: c, seen } = await liveClass(overSocket);
    expect(await c.teacher.request(POLL_CREATE_DESTINATION, { roomId: classId, ...QUIZ })).toBeNull();
    await eventually(() => expect(seen.first).toHaveLength(1));
    expect(seen.first[0]).toMatchObject({ quiz: true, correct: null, counts: null, voters: 0 });
    expect(seen.teacher[0]).toMatchObject({ correct: [1], counts: [0, 0, 0] });
    const pollId = seen.teacher[0]?.id;

    expect(
      await c.first.request(POLL_VOTE_DESTINATION, { roomId: classId, pollId, options: [1] }),
    ).toBeNull();
    expect(
      await c.second.request(POLL_VOTE_DESTINATION, { roomId: classId, pollId, options: [2] }),
    ).toBeNull();
    const again = await c.first.request(POLL_VOTE_DESTINATION, { roomId: classId, pollId, options: [0] });
    expect(again).toMatchObject({ code: 'already-voted', message: '이미 답한 투표예요.' });
    const changed = await c.second.request(POLL_VOTE_DESTINATION, { roomId: classId, pollId, options: [1] });
    expect(changed?.code).toBe('already-voted');
    await eventually(() => expect(seen.teacher.at(-1)).toMatchObject({ counts: [0, 1, 1], voters: 2 }));
    expect(seen.first.at(-1)).toMatchObject({ counts: null, correct: null, voters: 2 });

    expect(await c.teacher.request(POLL_CLOSE_DESTINATION, { roomId: classId, pollId })).toBeNull();
    const late = await enrolStudent(app, classId);
    const lateClient = await joined(late, classId);
    const closed = await lateClient.request(POLL_VOTE_DESTINATION, { roomId: classId, pollId, options: [1] });
    expect(closed).toMatchObject({ code: 'closed', message: '마감된 투표예요.' });

    expect(await c.teacher.request(POLL_REVEAL_DESTINATION, { roomId: classId, pollId })).toBeNull();
    await eventually(() =>
      expect(seen.first.at(-1)).toMatchObject({
        counts: [0, 1, 1],
        correct: [1],
        closed: true,
        revealed: true,
      }),
    );
    const mine = await list(student, classId);
    expect(mine.polls[0]).toMatchObject({ myVote: [1], counts: [0, 1, 1] });
    expect((await list(teacher, classId)).polls[0]?.myVote).toBeNull();
  });

  it("refuses a student's poll, close and reveal, a teacher's vote, a bad answer, and polls while not live", async () => {
    const { classId, clients: c, seen, sessionId, teacher } = await liveClass();
    for (const [destination, body] of [
      [POLL_CREATE_DESTINATION, { roomId: classId, ...QUIZ }],
      [POLL_CLOSE_DESTINATION, { roomId: classId, pollId: 1 }],
      [POLL_REVEAL_DESTINATION, { roomId: classId, pollId: 1 }],
    ] as const) {
      expect(await c.first.request(destination, body)).toMatchObject({ code: 'teacher-only' });
    }
    await c.teacher.request(POLL_CREATE_DESTINATION, { roomId: classId, ...QUIZ });
    await eventually(() => expect(seen.teacher).toHaveLength(1));
    const pollId = seen.teacher[0]?.id;
    const teacherVote = await c.teacher.request(POLL_VOTE_DESTINATION, {
      roomId: classId,
      pollId,
      options: [1],
    });
    expect(teacherVote?.message).toBe('투표는 수강생만 할 수 있어요.');
    const two = await c.first.request(POLL_VOTE_DESTINATION, { roomId: classId, pollId, options: [0, 1] });
    expect(two?.message).toBe('보기 하나를 골라 주세요.');
    const outside = await c.first.request(POLL_VOTE_DESTINATION, { roomId: classId, pollId, options: [5] });
    expect(outside?.code).toBe('bad-request');
    const blank = await c.teacher.request(POLL_CREATE_DESTINATION, {
      roomId: classId,
      question: ' ',
      options: ['a', 'b'],
    });
    expect(blank?.code).toBe('blank');

    await endLiveSession(app, sessionId);
    const notLive = await c.teacher.request(POLL_CREATE_DESTINATION, { roomId: classId, ...QUIZ });
    expect(notLive).toMatchObject({
      code: 'not-live',
      message: '라이브 수업 중에만 투표를 시작할 수 있어요.',
    });
    // The ended session keeps its poll.
    expect((await list(teacher, classId, `?session=${sessionId}`)).polls).toHaveLength(1);
  });

  it('stores a batch of answers in one go: a repeat counts once, the first', async () => {
    const { classId, student, other, clients: c, seen } = await liveClass();
    await c.teacher.request(POLL_CREATE_DESTINATION, { roomId: classId, ...QUIZ, correct: null });
    await eventually(() => expect(seen.teacher).toHaveLength(1));
    const pollId = seen.teacher[0]?.id ?? 0;
    const answer = (userId: string, options: number[]) => ({ pollId, userId, options });
    expect(
      await votePolls(app.db, [answer(student.id, [1]), answer(other.id, [2]), answer(student.id, [0])]),
    ).toEqual(['voted', 'voted', 'already-voted']);
    expect(await votePolls(app.db, [answer(other.id, [0])])).toEqual(['already-voted']);
    const [poll] = (await list(student, classId)).polls;
    expect(poll).toMatchObject({ myVote: [1], voters: 2 });
    expect((await findPollHeads(app.db, [pollId, pollId, pollId + 1000])).size).toBe(1);
  });

  it('sends many answers at once as a few updates, the last with every answer', async () => {
    const { classId, clients: room, seen } = await liveClass();
    expect(
      await room.teacher.request(POLL_CREATE_DESTINATION, { roomId: classId, ...QUIZ, correct: null }),
    ).toBeNull();
    await eventually(() => expect(seen.teacher).toHaveLength(1));
    const pollId = seen.teacher[0]?.id;
    const voters = await Promise.all(
      Array.from({ length: 12 }, async () => joined(await enrolStudent(app, classId), classId)),
    );
    const published = vi.spyOn(app.roomBus, 'publishEvent');
    const started = Date.now();
    const answers = await Promise.all(
      voters.map((voter) => voter.request(POLL_VOTE_DESTINATION, { roomId: classId, pollId, options: [0] })),
    );
    expect(answers.every((answer) => answer === null)).toBe(true);
    await eventually(() => expect(seen.teacher.at(-1)).toMatchObject({ voters: 12, counts: [12, 0, 0] }));
    // Answers' updates may wait a moment to go with other news (room-bus/delivery.ts); the teacher's don't.
    const events = published.mock.calls.map(([event]) => event);
    published.mockRestore();
    expect(events.length).toBeGreaterThan(0);
    expect(events.every((event) => event.destination === pollTopic(classId) && event.throttled)).toBe(true);
    // At most 4 a second after the first (sent at once), however many answers came.
    const updates = seen.teacher.length - 1;
    const seconds = (Date.now() - started) / 1000;
    expect(updates).toBeLessThanOrEqual(1 + Math.ceil(seconds * 4));
    expect(updates).toBeLessThan(12);
  });

  it.each([
    ['WebSocket', overSocket],
    ['SockJS', overSockJs],
  ] as const)(
    'takes no answer once a quiz is revealed or its session has ended, over %s',
    async (_, join) => {
      const { classId, other, clients: c, seen, sessionId } = await liveClass();
      const student = await join(other, classId);
      await c.teacher.request(POLL_CREATE_DESTINATION, { roomId: classId, ...QUIZ });
      await c.teacher.request(POLL_CREATE_DESTINATION, { roomId: classId, ...QUIZ, question: '3 + 3은?' });
      await eventually(() => expect(seen.teacher).toHaveLength(2));
      const [revealedId, openId] = [seen.teacher[0]?.id, seen.teacher[1]?.id];

      // Revealing the answer closes the quiz: an answer after it only copied the answer (it was taken).
      expect(
        await c.teacher.request(POLL_REVEAL_DESTINATION, { roomId: classId, pollId: revealedId }),
      ).toBeNull();
      const afterReveal = { roomId: classId, pollId: revealedId, options: [1] };
      expect(await student.request(POLL_VOTE_DESTINATION, afterReveal)).toMatchObject({ code: 'closed' });

      // The end of the session closes its open polls, and the room sees them closed.
      await endLiveSession(app, sessionId);
      await eventually(() =>
        expect(seen.first.findLast((poll) => poll.id === openId)).toMatchObject({ closed: true }),
      );
      const afterEnd = { roomId: classId, pollId: openId, options: [1] };
      expect(await student.request(POLL_VOTE_DESTINATION, afterEnd)).toMatchObject({
        code: 'closed',
        message: '마감된 투표예요.',
      });
    },
  );
});
