import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  CHAT_MUTE_DESTINATION,
  QUESTION_ANSWER_DESTINATION,
  QUESTION_ASK_DESTINATION,
  QUESTION_DELETE_DESTINATION,
  QUESTION_PIN_DESTINATION,
  QUESTION_VOTE_DESTINATION,
  questionTopic,
  type QuestionEvent,
  type QuestionList,
} from '@sea/contract/classroom';
import { bearer, buildTestApp, type TestUser } from '../../test/helper.ts';
import { RoomBusClient } from '../../test/room-bus-client.ts';
import { type Join, roomActionsUnderTest } from '../../test/room-actions.ts';
import { createChatClass, eventually } from '../../test/chat-clients.ts';
import { endLiveSession, enrolStudent, openLiveSession } from '../../test/classroom.ts';
import { voteQuestions } from '../sessions/question-store.ts';

const { app: built, joined, member, overSocket } = roomActionsUnderTest();
let app: FastifyInstance;
beforeAll(() => {
  app = built();
});

async function list(user: TestUser, classId: number, query = ''): Promise<QuestionList> {
  const response = await app.inject({
    url: `/api/classes/${classId}/questions${query}`,
    headers: bearer(user),
  });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: QuestionList }>().data;
}

/** A live class with its teacher and two students, each connected and watching the questions. */
async function liveClass(join: Join = joined) {
  const chat = await createChatClass(app);
  const other = await enrolStudent(app, chat.classId);
  const sessionId = await openLiveSession(app, chat.classId);
  const [teacher, asker, classmate] = await Promise.all(
    [chat.teacher, chat.student, other].map((user) => join(user, chat.classId)),
  );
  if (!teacher || !asker || !classmate) throw new Error('not joined');
  const topic = questionTopic(chat.classId);
  const seen = {
    teacher: (await teacher.watch(topic)) as QuestionEvent[],
    asker: (await asker.watch(topic)) as QuestionEvent[],
    classmate: (await classmate.watch(topic)) as QuestionEvent[],
  };
  return { ...chat, other, sessionId, clients: { teacher, asker, classmate }, seen };
}

describe('questions', () => {
  it('refuses a question while the class is not live', async () => {
    const { classId, student } = await createChatClass(app);
    const client = await joined(student, classId);
    const refusal = await client.request(QUESTION_ASK_DESTINATION, { roomId: classId, content: '질문이요' });
    expect(refusal).toMatchObject({ code: 'not-live', message: '라이브 수업 중에만 질문할 수 있어요.' });
  });

  it('hides an anonymous asker from other students, never from the teacher or the asker', async () => {
    // Over real sockets: the other cases act on the room bus at the handler.
    const { classId, student, clients: c, seen } = await liveClass(overSocket);
    expect(
      await c.asker.request(QUESTION_ASK_DESTINATION, {
        roomId: classId,
        content: '익명 질문',
        anonymous: true,
      }),
    ).toBeNull();
    await eventually(() => {
      expect(seen.teacher[0]).toMatchObject({
        question: { author: student.nickname, authorId: student.id, anonymous: true, mine: false },
      });
      expect(seen.classmate[0]).toMatchObject({ question: { author: null, authorId: null, mine: false } });
      expect(seen.asker[0]).toMatchObject({ question: { author: student.nickname, mine: true } });
    });
  });

  it('counts one upvote per student, refuses a second, and lists by votes', async () => {
    const { classId, teacher, other, clients: c, seen } = await liveClass();
    await c.asker.request(QUESTION_ASK_DESTINATION, { roomId: classId, content: '첫 질문' });
    await c.asker.request(QUESTION_ASK_DESTINATION, { roomId: classId, content: '둘째 질문' });
    await eventually(() => expect(seen.teacher).toHaveLength(2));
    const second = (seen.teacher[1] as Extract<QuestionEvent, { type: 'question' }>).question;
    expect(
      await c.classmate.request(QUESTION_VOTE_DESTINATION, { roomId: classId, questionId: second.id }),
    ).toBeNull();
    const again = await c.classmate.request(QUESTION_VOTE_DESTINATION, {
      roomId: classId,
      questionId: second.id,
    });
    expect(again).toMatchObject({ code: 'already-voted', message: '이미 추천한 질문이에요.' });
    const missing = await c.classmate.request(QUESTION_VOTE_DESTINATION, {
      roomId: classId,
      questionId: second.id + 1000,
    });
    expect(missing).toMatchObject({ code: 'not-found', message: '이미 삭제되었거나 없는 질문이에요.' });
    await eventually(() =>
      expect(seen.teacher.at(-1)).toMatchObject({ question: { id: second.id, votes: 1 } }),
    );
    expect(seen.teacher).toHaveLength(3);

    const forTeacher = await list(teacher, classId);
    expect(forTeacher.questions.map((q) => [q.content, q.votes])).toEqual([
      ['둘째 질문', 1],
      ['첫 질문', 0],
    ]);
    const forVoter = await list(other, classId);
    expect(forVoter.questions.map((q) => q.voted)).toEqual([true, false]);
  });

  it("stores a batch of upvotes in one go: a repeat counts once, another class's question is not found", async () => {
    const { classId, student, other, teacher, clients: c, seen } = await liveClass();
    await c.asker.request(QUESTION_ASK_DESTINATION, { roomId: classId, content: '묶음 추천' });
    await eventually(() => expect(seen.teacher).toHaveLength(1));
    const questionId = (seen.teacher[0] as Extract<QuestionEvent, { type: 'question' }>).question.id;
    const elsewhere = await createChatClass(app);
    const vote = (userId: string, at = { classId, questionId }) => ({ ...at, userId });
    expect(
      await voteQuestions(app.db, [
        vote(student.id),
        vote(other.id),
        vote(student.id),
        vote(teacher.id, { classId: elsewhere.classId, questionId }),
        vote(teacher.id, { classId, questionId: questionId + 1000 }),
      ]),
    ).toEqual(['voted', 'voted', 'already-voted', 'not-found', 'not-found']);
    expect(await voteQuestions(app.db, [vote(other.id), vote(teacher.id)])).toEqual([
      'already-voted',
      'voted',
    ]);
    expect((await list(teacher, classId)).questions[0]?.votes).toBe(3);
    // One user's vote under another class of theirs first, then under the question's own: the second counts.
    const third = await enrolStudent(app, classId);
    expect(
      await voteQuestions(app.db, [
        vote(third.id, { classId: elsewhere.classId, questionId }),
        vote(third.id),
        vote(third.id),
      ]),
    ).toEqual(['not-found', 'voted', 'already-voted']);
    expect((await list(teacher, classId)).questions[0]?.votes).toBe(4);
  });

  it("refuses a student's answer, pin and delete; the teacher's take effect for everyone", async () => {
    const { classId, teacher, clients: c, seen } = await liveClass();
    await c.asker.request(QUESTION_ASK_DESTINATION, { roomId: classId, content: '질문' });
    await eventually(() => expect(seen.classmate).toHaveLength(1));
    const { id } = (seen.classmate[0] as Extract<QuestionEvent, { type: 'question' }>).question;
    for (const destination of [
      QUESTION_ANSWER_DESTINATION,
      QUESTION_PIN_DESTINATION,
      QUESTION_DELETE_DESTINATION,
    ]) {
      expect(await c.asker.request(destination, { roomId: classId, questionId: id })).toMatchObject({
        code: 'teacher-only',
      });
    }
    expect(await c.teacher.request(QUESTION_PIN_DESTINATION, { roomId: classId, questionId: id })).toBeNull();
    expect(
      await c.teacher.request(QUESTION_ANSWER_DESTINATION, { roomId: classId, questionId: id }),
    ).toBeNull();
    await eventually(() =>
      expect(seen.classmate.at(-1)).toMatchObject({ question: { id, pinned: true, answered: true } }),
    );
    expect(
      await c.teacher.request(QUESTION_DELETE_DESTINATION, { roomId: classId, questionId: id }),
    ).toBeNull();
    await eventually(() =>
      expect(seen.classmate.at(-1)).toEqual({ type: 'questionDeleted', roomId: classId, questionId: id }),
    );
    expect((await list(teacher, classId)).questions).toEqual([]);
  });

  it('refuses a muted student', async () => {
    const { classId, student, clients: c } = await liveClass();
    await c.teacher.request(CHAT_MUTE_DESTINATION, { roomId: classId, userId: student.id, minutes: 3 });
    const refusal = await c.asker.request(QUESTION_ASK_DESTINATION, { roomId: classId, content: '질문' });
    expect(refusal?.code).toBe('muted');
    expect(refusal?.message).toContain('3분 후에');
  });

  it('refuses a stranger: subscribing ends the session, the list answers 418', async () => {
    const { classId, stranger } = await createChatClass(app);
    const client = member(stranger);
    await client.watch(questionTopic(classId));
    await client.closed();
    expect(client.errors[0]).toBe('not a member of this class');
    const response = await app.inject({
      url: `/api/classes/${classId}/questions`,
      headers: bearer(stranger),
    });
    expect(response.statusCode).toBe(418);
  });

  it("keeps an ended session's questions for ?session=, and 404s another class's session", async () => {
    const { classId, teacher, sessionId, clients: c } = await liveClass();
    await c.asker.request(QUESTION_ASK_DESTINATION, { roomId: classId, content: '남는 질문' });
    await endLiveSession(app, sessionId);
    expect(await list(teacher, classId)).toEqual({ sessionId: null, questions: [] });
    const kept = await list(teacher, classId, `?session=${sessionId}`);
    expect(kept.questions.map((q) => q.content)).toEqual(['남는 질문']);
    const other = await createChatClass(app);
    const response = await app.inject({
      url: `/api/classes/${other.classId}/questions?session=${sessionId}`,
      headers: bearer(other.teacher),
    });
    expect(response.statusCode).toBe(404);
  });

  it("keeps a hidden session's questions and polls for the teacher alone (a student read them)", async () => {
    const { classId, teacher, student, sessionId, clients: c } = await liveClass();
    await c.asker.request(QUESTION_ASK_DESTINATION, { roomId: classId, content: '숨길 질문' });
    await endLiveSession(app, sessionId);
    const hide = await app.inject({
      method: 'PATCH',
      url: `/api/classes/${classId}/sessions/${sessionId}`,
      payload: { hidden: true },
      headers: bearer(teacher),
    });
    expect(hide.statusCode).toBe(200);
    for (const kind of ['questions', 'polls']) {
      const url = `/api/classes/${classId}/${kind}?session=${sessionId}`;
      expect((await app.inject({ url, headers: bearer(student) })).statusCode).toBe(404);
      expect((await app.inject({ url, headers: bearer(teacher) })).statusCode).toBe(200);
    }
  });

  it("shares the chat's write budget: a student who used it up cannot ask either", async () => {
    const limited = await buildTestApp({ chat: { rateLimit: { capacity: 2, refillPerSecond: 0.01 } } });
    try {
      const { classId, student } = await createChatClass(limited);
      await openLiveSession(limited, classId);
      const client = new RoomBusClient(limited.roomBus, student.id);
      await client.join(classId);
      expect(await client.request('/app/hello', { roomId: classId, content: '하나' })).toBeNull();
      expect(await client.request(QUESTION_ASK_DESTINATION, { roomId: classId, content: '질문' })).toBeNull();
      const refused = await client.request(QUESTION_ASK_DESTINATION, { roomId: classId, content: '또 질문' });
      expect(refused).toMatchObject({
        code: 'rate-limited',
        message: '너무 빨리 보내고 있어요. 잠시 후 다시 시도해 주세요.',
      });
    } finally {
      await limited.close();
    }
  });

  it('sends many votes at once as a few updates, and nothing of the question after its deletion', async () => {
    const { classId, clients: room, seen } = await liveClass();
    expect(
      await room.asker.request(QUESTION_ASK_DESTINATION, { roomId: classId, content: '인기 질문' }),
    ).toBeNull();
    await eventually(() => expect(seen.teacher).toHaveLength(1));
    const first = seen.teacher[0];
    const questionId = first?.type === 'question' ? first.question.id : 0;
    const voters = await Promise.all(
      Array.from({ length: 12 }, async () => joined(await enrolStudent(app, classId), classId)),
    );
    const published = vi.spyOn(app.roomBus, 'publishEvent');
    const started = Date.now();
    const votes = await Promise.all(
      voters.map((voter) => voter.request(QUESTION_VOTE_DESTINATION, { roomId: classId, questionId })),
    );
    expect(votes.every((vote) => vote === null)).toBe(true);
    await eventually(() =>
      expect(seen.teacher.at(-1)).toMatchObject({ type: 'question', question: { votes: 12 } }),
    );
    const updates = seen.teacher.length - 1;
    expect(updates).toBeLessThanOrEqual(1 + Math.ceil(((Date.now() - started) / 1000) * 4));
    expect(updates).toBeLessThan(12);

    // Votes and the deletion at once: whatever was on its way, the deletion is the last word.
    const late = await Promise.all(
      [room.classmate, room.asker].map((client) =>
        client.request(QUESTION_VOTE_DESTINATION, { roomId: classId, questionId }),
      ),
    );
    expect(late).toEqual([null, null]);
    expect(
      await room.teacher.request(QUESTION_DELETE_DESTINATION, { roomId: classId, questionId }),
    ).toBeNull();
    await eventually(() =>
      expect(seen.classmate.at(-1)).toEqual({ type: 'questionDeleted', roomId: classId, questionId }),
    );
    await new Promise((resolve) => setTimeout(resolve, 600));
    expect(seen.classmate.at(-1)).toEqual({ type: 'questionDeleted', roomId: classId, questionId });
    // Votes' updates may wait a moment to go with other news (room-bus/delivery.ts); the deletion doesn't.
    const events = published.mock.calls.map(([event]) => event);
    published.mockRestore();
    expect(events.at(-1)).toMatchObject({ body: { type: 'questionDeleted' } });
    expect(events.at(-1)?.throttled).toBeUndefined();
    expect(events.slice(0, -1).every((event) => event.throttled)).toBe(true);
  });
});
