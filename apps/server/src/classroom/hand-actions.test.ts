import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  HAND_LOWER_DESTINATION,
  HAND_RAISE_DESTINATION,
  handTopic,
  type HandsView,
} from '@sea/contract/classroom';
import { bearer, type TestUser } from '../../test/helper.ts';
import { roomActionsUnderTest } from '../../test/room-actions.ts';
import { createChatClass, eventually } from '../../test/chat-clients.ts';
import { enrolStudent, openLiveSession } from '../../test/classroom.ts';

const { app: built, joined, member, overSocket, overSockJs } = roomActionsUnderTest();
let app: FastifyInstance;
beforeAll(() => {
  app = built();
});

async function handsOf(user: TestUser, classId: number): Promise<HandsView> {
  const response = await app.inject({ url: `/api/classes/${classId}/hands`, headers: bearer(user) });
  expect(response.statusCode).toBe(200);
  return response.json<{ data: HandsView }>().data;
}

describe('raised hands', () => {
  it('gives the teacher the queue in order, and each student the count and their own hand', async () => {
    const { classId, teacher, student } = await createChatClass(app);
    const second = await enrolStudent(app, classId);
    await openLiveSession(app, classId);
    // Over real sockets: the other cases act on the room bus at the handler.
    const teacherClient = await overSocket(teacher, classId);
    const first = await overSocket(student, classId);
    const other = await overSocket(second, classId);
    const teacherSees = (await teacherClient.watch(handTopic(classId))) as HandsView[];
    const otherSees = (await other.watch(handTopic(classId))) as HandsView[];
    const firstSees = (await first.watch(handTopic(classId))) as HandsView[];

    expect(await first.request(HAND_RAISE_DESTINATION, { roomId: classId, raised: true })).toBeNull();
    expect(await other.request(HAND_RAISE_DESTINATION, { roomId: classId, raised: true })).toBeNull();
    // Raising again keeps the first place.
    expect(await first.request(HAND_RAISE_DESTINATION, { roomId: classId, raised: true })).toBeNull();
    await eventually(() => expect(teacherSees).toHaveLength(3));
    expect(teacherSees.at(-1)?.queue.map((hand) => hand.userId)).toEqual([student.id, second.id]);
    expect(teacherSees.at(-1)?.queue[0]?.nickname).toBe(student.nickname);
    await eventually(() => expect(otherSees).toHaveLength(3));
    expect(otherSees.at(-1)).toEqual({ roomId: classId, count: 2, raised: true, queue: [] });
    expect(otherSees[0]).toEqual({ roomId: classId, count: 1, raised: false, queue: [] });
    await eventually(() => expect(firstSees.at(-1)).toMatchObject({ count: 2, raised: true, queue: [] }));
    expect((await handsOf(teacher, classId)).queue).toHaveLength(2);
    expect(await handsOf(second, classId)).toEqual({ roomId: classId, count: 2, raised: true, queue: [] });

    // A student lowers their own; the teacher lowers one, then all.
    await first.request(HAND_RAISE_DESTINATION, { roomId: classId, raised: false });
    await eventually(() => expect(firstSees.at(-1)).toMatchObject({ count: 1, raised: false }));
    await first.request(HAND_RAISE_DESTINATION, { roomId: classId, raised: true });
    expect(
      await teacherClient.request(HAND_LOWER_DESTINATION, { roomId: classId, userId: second.id }),
    ).toBeNull();
    await eventually(() => expect(otherSees.at(-1)).toMatchObject({ count: 1, raised: false }));
    expect(await teacherClient.request(HAND_LOWER_DESTINATION, { roomId: classId })).toBeNull();
    await eventually(() => expect(teacherSees.at(-1)).toMatchObject({ count: 0, queue: [] }));
    expect(await handsOf(student, classId)).toMatchObject({ count: 0, raised: false });
  });

  it("refuses a student's lowering of others and a teacher's raised hand; a stranger cannot watch", async () => {
    const { classId, teacher, student, stranger } = await createChatClass(app);
    const teacherClient = await joined(teacher, classId);
    const studentClient = await joined(student, classId);
    const refused = await studentClient.request(HAND_LOWER_DESTINATION, { roomId: classId });
    expect(refused).toMatchObject({ code: 'teacher-only', message: '강사만 할 수 있어요.' });
    const teacherHand = await teacherClient.request(HAND_RAISE_DESTINATION, {
      roomId: classId,
      raised: true,
    });
    expect(teacherHand?.message).toBe('손들기는 수강생만 할 수 있어요.');

    const strangerClient = member(stranger);
    await strangerClient.watch(handTopic(classId));
    await strangerClient.closed();
    expect(strangerClient.errors[0]).toBe('not a member of this class');
    const response = await app.inject({ url: `/api/classes/${classId}/hands`, headers: bearer(stranger) });
    expect(response.statusCode).toBe(418);
  });

  it('lowers every hand when the live session ends, and tells the room', async () => {
    const { classId, teacher, student } = await createChatClass(app);
    const teacherClient = await joined(teacher, classId);
    const studentClient = await joined(student, classId);
    const teacherSees = (await teacherClient.watch(handTopic(classId))) as HandsView[];
    const sessionId = await openLiveSession(app, classId);
    await studentClient.request(HAND_RAISE_DESTINATION, { roomId: classId, raised: true });
    await eventually(() => expect(teacherSees.at(-1)?.count).toBe(1));
    const now = new Date();
    await app.events.emit('sessionEnded', {
      id: sessionId,
      classId,
      mediaKey: 'k',
      nodeId: 'n',
      startedAt: now,
      endedAt: now,
      recordingState: 'none',
    });
    await eventually(() => expect(teacherSees.at(-1)).toMatchObject({ count: 0, queue: [] }));
    expect((await handsOf(teacher, classId)).count).toBe(0);
  });

  it.each([
    ['WebSocket', overSocket],
    ['SockJS', overSockJs],
  ] as const)(
    'refuses a hand raised while the class is not live, over %s; lowering stays open',
    async (_, join) => {
      const { classId, student } = await createChatClass(app);
      const client = await join(student, classId);
      const raised = await client.request(HAND_RAISE_DESTINATION, { roomId: classId, raised: true });
      expect(raised).toMatchObject({ code: 'not-live', message: '라이브 수업 중에만 손을 들 수 있어요.' });
      expect(await client.request(HAND_RAISE_DESTINATION, { roomId: classId, raised: false })).toBeNull();
      // The connection is kept: once the class is live, the same client raises its hand.
      await openLiveSession(app, classId);
      expect(await client.request(HAND_RAISE_DESTINATION, { roomId: classId, raised: true })).toBeNull();
      expect((await handsOf(student, classId)).raised).toBe(true);
    },
  );
});
