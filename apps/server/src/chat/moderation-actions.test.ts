import { beforeAll, describe, expect, it, vi } from 'vitest';
import type { FastifyInstance } from 'fastify';
import type { ChatMessage } from '@sea/contract/chat';
import {
  CHAT_DELETE_DESTINATION,
  CHAT_MUTE_DESTINATION,
  CHAT_SLOW_DESTINATION,
  moderationTopic,
} from '@sea/contract/classroom';
import { bearer, type TestUser } from '../../test/helper.ts';
import { roomActionsUnderTest } from '../../test/room-actions.ts';
import { createChatClass, eventually } from '../../test/chat-clients.ts';

const { app: built, joined, member, overSocket } = roomActionsUnderTest();
let app: FastifyInstance;
beforeAll(() => {
  app = built();
});

async function history(user: TestUser, classId: number): Promise<ChatMessage[]> {
  const response = await app.inject({ url: `/find/chat/list/${classId}`, headers: bearer(user) });
  expect(response.statusCode).toBe(200);
  return response.json<ChatMessage[]>();
}

describe('the teacher in the chat', () => {
  it("carries each writer's role in the broadcast and in the history", async () => {
    const { classId, teacher, student } = await createChatClass(app);
    // Over real sockets: the moderation's other cases act on the room bus at the handler.
    const reader = await overSocket(student, classId);
    const teacherClient = await overSocket(teacher, classId);
    await teacherClient.sendAndWait({ roomId: classId, content: '수업 시작합니다' });
    await reader.sendAndWait({ roomId: classId, content: '네!' });
    const stored = await history(student, classId);
    expect(stored.map((m) => [m.content, m.role])).toEqual([
      ['수업 시작합니다', 'teacher'],
      ['네!', 'student'],
    ]);
    await eventually(() => expect(reader.messages).toEqual(stored));
  });
});

describe('moderation', () => {
  it('deletes a message for everyone and from the history', async () => {
    const { classId, teacher, student } = await createChatClass(app);
    const teacherClient = await joined(teacher, classId);
    const studentClient = await joined(student, classId);
    const news = await studentClient.watch(moderationTopic(classId));
    await studentClient.sendAndWait({ roomId: classId, content: '지울 메시지' });
    await studentClient.sendAndWait({ roomId: classId, content: '남길 메시지' });
    const [doomed] = await history(teacher, classId);
    if (!doomed) throw new Error('no message stored');

    const refusal = await teacherClient.request(CHAT_DELETE_DESTINATION, {
      roomId: classId,
      messageId: doomed.id,
    });
    expect(refusal).toBeNull();
    expect((await history(student, classId)).map((m) => m.content)).toEqual(['남길 메시지']);
    await eventually(() =>
      expect(news).toEqual([
        // The room's state, told on SUBSCRIBE.
        { type: 'slowMode', roomId: classId, seconds: 0 },
        { type: 'muted', roomId: classId, userId: student.id, until: null },
        { type: 'messageDeleted', roomId: classId, messageId: doomed.id },
      ]),
    );
    // Again: it is gone, and the teacher hears so.
    const again = await teacherClient.request(CHAT_DELETE_DESTINATION, {
      roomId: classId,
      messageId: doomed.id,
    });
    expect(again?.code).toBe('not-found');
  });

  it("refuses a student's delete, mute and slow mode in Korean and changes nothing", async () => {
    const { classId, teacher, student } = await createChatClass(app);
    const teacherClient = await joined(teacher, classId);
    const studentClient = await joined(student, classId);
    await teacherClient.sendAndWait({ roomId: classId, content: '강사 메시지' });
    const [message] = await history(teacher, classId);
    const attempts: Array<[string, unknown]> = [
      [CHAT_DELETE_DESTINATION, { roomId: classId, messageId: message?.id }],
      [CHAT_MUTE_DESTINATION, { roomId: classId, userId: teacher.id, minutes: 10 }],
      [CHAT_SLOW_DESTINATION, { roomId: classId, seconds: 60 }],
    ];
    for (const [destination, body] of attempts) {
      const refusal = await studentClient.request(destination, body);
      expect(refusal).toMatchObject({ code: 'teacher-only', message: '강사만 할 수 있어요.' });
    }
    expect(await history(teacher, classId)).toHaveLength(1);
    // Neither slow mode nor a mute took effect: the student writes twice at once.
    await studentClient.sendAndWait({ roomId: classId, content: '하나' });
    await studentClient.sendAndWait({ roomId: classId, content: '둘' });
    expect(studentClient.open).toBe(true);
  });

  it('refuses a stranger who subscribes to the moderation news, then closes', async () => {
    const { classId, stranger } = await createChatClass(app);
    const strangerClient = member(stranger);
    await strangerClient.watch(moderationTopic(classId));
    await strangerClient.closed();
    expect(strangerClient.errors[0]).toBe('not a member of this class');
  });

  it("mutes a student's chat for a while, says how long in Korean, and lifts it", async () => {
    const { classId, teacher, student } = await createChatClass(app);
    const teacherClient = await joined(teacher, classId);
    const studentClient = await joined(student, classId);
    const news = await studentClient.watch(moderationTopic(classId));
    expect(
      await teacherClient.request(CHAT_MUTE_DESTINATION, { roomId: classId, userId: student.id, minutes: 5 }),
    ).toBeNull();
    const muted = await studentClient.request('/app/hello', { roomId: classId, content: '말하고 싶어요' });
    expect(muted).toMatchObject({ code: 'muted' });
    expect(muted?.message).toContain('5분 후에');
    // The teacher is never muted; muting the teacher is refused.
    await teacherClient.sendAndWait({ roomId: classId, content: '조용히 해 주세요' });
    const self = await teacherClient.request(CHAT_MUTE_DESTINATION, {
      roomId: classId,
      userId: teacher.id,
      minutes: 5,
    });
    expect(self?.code).toBe('not-found');

    await teacherClient.request(CHAT_MUTE_DESTINATION, { roomId: classId, userId: student.id, minutes: 0 });
    expect(await studentClient.request('/app/hello', { roomId: classId, content: '감사합니다' })).toBeNull();
    await eventually(() =>
      expect(news).toEqual([
        { type: 'slowMode', roomId: classId, seconds: 0 },
        { type: 'muted', roomId: classId, userId: student.id, until: null },
        { type: 'muted', roomId: classId, userId: student.id, until: expect.any(String) },
        { type: 'muted', roomId: classId, userId: student.id, until: null },
      ]),
    );
    expect((await history(teacher, classId)).map((m) => m.content)).toEqual([
      '조용히 해 주세요',
      '감사합니다',
    ]);
  });

  it('slow mode lets a student write once per N seconds; the teacher is not slowed', async () => {
    const { classId, teacher, student } = await createChatClass(app);
    const teacherClient = await joined(teacher, classId);
    const studentClient = await joined(student, classId);
    expect(await teacherClient.request(CHAT_SLOW_DESTINATION, { roomId: classId, seconds: 30 })).toBeNull();
    expect(await studentClient.request('/app/hello', { roomId: classId, content: '첫 번째' })).toBeNull();
    const second = await studentClient.request('/app/hello', { roomId: classId, content: '두 번째' });
    expect(second?.code).toBe('slow-mode');
    expect(second?.message).toMatch(/천천히 모드예요\. (29|30)초 후에 다시 보낼 수 있어요\./);
    await teacherClient.sendAndWait({ roomId: classId, content: '하나' });
    await teacherClient.sendAndWait({ roomId: classId, content: '둘' });
    // Off again: the student writes at once.
    await teacherClient.request(CHAT_SLOW_DESTINATION, { roomId: classId, seconds: 0 });
    expect(await studentClient.request('/app/hello', { roomId: classId, content: '세 번째' })).toBeNull();
    expect((await history(teacher, classId)).map((m) => m.content)).toEqual([
      '첫 번째',
      '하나',
      '둘',
      '세 번째',
    ]);
  });

  it('tells a new subscriber the slow mode, a student their own mute, the teacher every mute, first', async () => {
    const { classId, teacher, student } = await createChatClass(app);
    const teacherClient = await joined(teacher, classId);
    expect(await teacherClient.request(CHAT_SLOW_DESTINATION, { roomId: classId, seconds: 30 })).toBeNull();
    expect(
      await teacherClient.request(CHAT_MUTE_DESTINATION, { roomId: classId, userId: student.id, minutes: 5 }),
    ).toBeNull();

    // A student joining now: both are known when the subscription is confirmed, with no change since.
    const studentClient = await joined(student, classId);
    const news = await studentClient.watch(moderationTopic(classId));
    expect(news).toEqual([
      { type: 'slowMode', roomId: classId, seconds: 30 },
      { type: 'muted', roomId: classId, userId: student.id, until: expect.any(String) },
    ]);
    const until = Date.parse((news[1] as { until: string }).until);
    expect(until - Date.now()).toBeGreaterThan(4 * 60_000);
    expect(until - Date.now()).toBeLessThanOrEqual(5 * 60_000);
    // The teacher hears the slow mode and every mute still running (the list of muted students).
    const teacherNews = await teacherClient.watch(moderationTopic(classId));
    expect(teacherNews).toEqual([
      { type: 'slowMode', roomId: classId, seconds: 30 },
      { type: 'muted', roomId: classId, userId: student.id, until: new Date(until).toISOString() },
    ]);

    // Lifted while the student was away: coming back says so. The lifts are announced after the requests are
    // answered; once the teacher has heard both, a student subscribing is told the state alone (on PostgreSQL
    // an announcement still on its way reached the new subscription before its greeting).
    await teacherClient.request(CHAT_SLOW_DESTINATION, { roomId: classId, seconds: 0 });
    await teacherClient.request(CHAT_MUTE_DESTINATION, { roomId: classId, userId: student.id, minutes: 0 });
    await vi.waitFor(() => expect(teacherNews).toHaveLength(4));
    const back = await joined(student, classId);
    expect(await back.watch(moderationTopic(classId))).toEqual([
      { type: 'slowMode', roomId: classId, seconds: 0 },
      { type: 'muted', roomId: classId, userId: student.id, until: null },
    ]);
  });
});
