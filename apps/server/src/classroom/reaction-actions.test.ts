import { beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { REACTION_DESTINATION, reactionTopic, type ReactionCounts } from '@sea/contract/classroom';
import { roomActionsUnderTest } from '../../test/room-actions.ts';
import { createChatClass, eventually } from '../../test/chat-clients.ts';
import { enrolStudent } from '../../test/classroom.ts';

const { app: built, joined, member, overSocket } = roomActionsUnderTest({});
let app: FastifyInstance;
beforeAll(() => {
  app = built();
});

describe('reactions', () => {
  it('reach the room summed, at most 4 updates a second, none lost', async () => {
    const { classId, teacher, student } = await createChatClass(app);
    const other = await enrolStudent(app, classId);
    // Over real sockets (arrival times included): the other cases act on the room bus at the handler.
    const teacherClient = await overSocket(teacher, classId);
    const senders = [await overSocket(student, classId), await overSocket(other, classId)];
    const seen = (await teacherClient.watch(reactionTopic(classId))) as ReactionCounts[];
    const sends: Array<Promise<unknown>> = [];
    for (let i = 0; i < 10; i += 1) {
      for (const sender of senders) {
        sends.push(sender.request(REACTION_DESTINATION, { roomId: classId, emoji: i % 2 ? '👍' : '❤️' }));
      }
    }
    expect(await Promise.all(sends)).toEqual(sends.map(() => null));
    const total = () =>
      seen.reduce((sum, update) => sum + (update.counts['👍'] ?? 0) + (update.counts['❤️'] ?? 0), 0);
    await eventually(() => expect(total()).toBe(20));
    expect(seen.reduce((sum, update) => sum + (update.counts['👍'] ?? 0), 0)).toBe(10);
    const times = teacherClient.arrivals.get(reactionTopic(classId)) ?? [];
    // Timers may fire a little early or late on a busy machine: 200 ms apart at least, 4 a second.
    for (let i = 1; i < times.length; i += 1)
      expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThan(200);
  });

  it('refuses an emoji the room does not offer, and a burst past the limit', async () => {
    const { classId, student } = await createChatClass(app);
    const client = await joined(student, classId);
    expect((await client.request(REACTION_DESTINATION, { roomId: classId, emoji: '💩' }))?.code).toBe(
      'bad-request',
    );
    const answers = await Promise.all(
      Array.from({ length: 15 }, () =>
        client.request(REACTION_DESTINATION, { roomId: classId, emoji: '👏' }),
      ),
    );
    expect(answers.filter((answer) => answer?.code === 'rate-limited').length).toBeGreaterThan(0);
  });

  it('refuses a stranger who subscribes to the reactions', async () => {
    const { classId, stranger } = await createChatClass(app);
    const client = member(stranger);
    await client.watch(reactionTopic(classId));
    await client.closed();
    expect(client.errors[0]).toBe('not a member of this class');
  });
});
