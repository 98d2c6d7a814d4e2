import { randomBytes, randomUUID } from 'node:crypto';
import { afterAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import {
  CHAT_DELETE_DESTINATION,
  CHAT_MUTE_DESTINATION,
  CHAT_SLOW_DESTINATION,
  HAND_RAISE_DESTINATION,
  handTopic,
  moderationTopic,
  POLL_CREATE_DESTINATION,
  POLL_VOTE_DESTINATION,
  pollTopic,
  QUESTION_ASK_DESTINATION,
  QUESTION_VOTE_DESTINATION,
  questionTopic,
  REACTION_DESTINATION,
  reactionTopic,
  type ReactionCounts,
  type HandsView,
  type Poll,
  type QuestionEvent,
} from '@sea/contract/classroom';
import type { ChatMessage } from '@sea/contract/chat';
import { buildApp } from '../app.ts';
import {
  createTestDatabase,
  postgresAvailable,
  redisAvailable,
  testConfig,
  type TestUser,
} from '../../test/helper.ts';
import { createChatClass, eventually, listenForChat, TestChatClient } from '../../test/chat-clients.ts';
import { enrolStudent, openLiveSession } from '../../test/classroom.ts';
import { skipNotice } from '../../test/skip-notice.ts';

// Several instances need one shared database, so this suite always uses PostgreSQL (and Redis).
const SHARED_REDIS = 'redis://127.0.0.1:6379';
const required = process.env.CI === 'true';
const services = (await postgresAvailable()) && (await redisAvailable(SHARED_REDIS));
if (!services && required) throw new Error('PostgreSQL and Redis are required when CI=true');
if (!services) skipNotice('SKIPPED: classroom fan-out tests need PostgreSQL on 5432 and Redis on 6379');

const cleanups: Array<() => Promise<void>> = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

async function twoInstances(): Promise<{ apps: FastifyInstance[]; urls: string[] }> {
  const database = await createTestDatabase();
  cleanups.push(database.drop);
  const jwtSecret = randomBytes(32).toString('hex');
  const chat = {
    redisChannel: `sea:chat:test:${randomUUID()}`,
    rateLimit: { capacity: 100, refillPerSecond: 100 },
  };
  const apps: FastifyInstance[] = [];
  const urls: string[] = [];
  for (let i = 0; i < 2; i += 1) {
    const app = await buildApp(
      testConfig({
        database: { kind: 'postgres', url: database.url },
        redisUrl: SHARED_REDIS,
        jwtSecret,
        chat,
      }),
      { logger: false },
    );
    cleanups.push(() => app.close());
    apps.push(app);
    urls.push(await listenForChat(app));
  }
  return { apps, urls };
}

async function joined(url: string | undefined, user: TestUser, classId: number): Promise<TestChatClient> {
  if (!url) throw new Error('no url');
  const client = new TestChatClient(url, user.token);
  cleanups.push(() => client.close());
  await client.connect();
  await client.join(classId);
  return client;
}

describe.skipIf(!services)('the classroom across instances through Redis', () => {
  it('questions, votes, mutes, slow mode, hands, polls, reactions and deletions act alike on both instances', async () => {
    const { apps, urls } = await twoInstances();
    const [first] = apps;
    if (!first) throw new Error('no app');
    const { classId, teacher, student } = await createChatClass(first);
    const classmate = await enrolStudent(first, classId);
    await openLiveSession(first, classId);
    // The teacher on the first instance, the students on the second.
    const teacherClient = await joined(urls[0], teacher, classId);
    const asker = await joined(urls[1], student, classId);
    const voter = await joined(urls[1], classmate, classId);
    const voterOnFirst = await joined(urls[0], classmate, classId);
    const teacherSees = (await teacherClient.watch(questionTopic(classId))) as QuestionEvent[];
    const classmateSees = (await voter.watch(questionTopic(classId))) as QuestionEvent[];
    const moderation = await voter.watch(moderationTopic(classId));
    const askerModeration = await asker.watch(moderationTopic(classId));

    // A question asked on the second instance reaches the teacher on the first, with its anonymous author.
    await asker.request(QUESTION_ASK_DESTINATION, { roomId: classId, content: '질문', anonymous: true });
    await eventually(() => expect(teacherSees).toHaveLength(1));
    expect(teacherSees[0]).toMatchObject({ question: { author: student.nickname, votes: 0 } });
    await eventually(() => expect(classmateSees[0]).toMatchObject({ question: { author: null } }));
    const { id } = (teacherSees[0] as Extract<QuestionEvent, { type: 'question' }>).question;

    // One vote, whichever instance the second one comes through.
    expect(await voter.request(QUESTION_VOTE_DESTINATION, { roomId: classId, questionId: id })).toBeNull();
    const again = await voterOnFirst.request(QUESTION_VOTE_DESTINATION, { roomId: classId, questionId: id });
    expect(again?.code).toBe('already-voted');
    await eventually(() => expect(teacherSees.at(-1)).toMatchObject({ question: { votes: 1 } }));

    // Slow mode set on the first instance slows a student on the second, once its news is there (each
    // instance reads the room's moderation again when it hears of a change).
    await teacherClient.request(CHAT_SLOW_DESTINATION, { roomId: classId, seconds: 60 });
    await eventually(() =>
      expect(moderation).toContainEqual({ type: 'slowMode', roomId: classId, seconds: 60 }),
    );
    expect(await voter.request('/app/hello', { roomId: classId, content: '하나' })).toBeNull();
    expect((await voter.request('/app/hello', { roomId: classId, content: '둘' }))?.code).toBe('slow-mode');

    // A mute set on the first instance holds on the second.
    await teacherClient.request(CHAT_MUTE_DESTINATION, { roomId: classId, userId: student.id, minutes: 10 });
    await eventually(() =>
      expect(askerModeration.at(-1)).toMatchObject({
        type: 'muted',
        userId: student.id,
        until: expect.any(String),
      }),
    );
    expect((await asker.request('/app/hello', { roomId: classId, content: '안녕' }))?.code).toBe('muted');

    // A hand raised on the second instance is in the teacher's queue on the first.
    const queue = (await teacherClient.watch(handTopic(classId))) as HandsView[];
    const handsSeen = (await voterOnFirst.watch(handTopic(classId))) as HandsView[];
    await voter.request(HAND_RAISE_DESTINATION, { roomId: classId, raised: true });
    await eventually(() => expect(queue.at(-1)?.queue.map((hand) => hand.userId)).toEqual([classmate.id]));
    await eventually(() => expect(handsSeen.at(-1)).toMatchObject({ count: 1, raised: true, queue: [] }));

    // A poll started on the first instance is answered on both; one answer each, whichever instance.
    const pollsSeen = (await teacherClient.watch(pollTopic(classId))) as Poll[];
    const pollsOnSecond = (await voter.watch(pollTopic(classId))) as Poll[];
    await teacherClient.request(POLL_CREATE_DESTINATION, {
      roomId: classId,
      question: '어때요?',
      options: ['좋아요', '어려워요'],
    });
    await eventually(() => expect(pollsOnSecond).toHaveLength(1));
    const pollId = pollsOnSecond[0]?.id;
    expect(await voter.request(POLL_VOTE_DESTINATION, { roomId: classId, pollId, options: [1] })).toBeNull();
    expect(await asker.request(POLL_VOTE_DESTINATION, { roomId: classId, pollId, options: [1] })).toBeNull();
    const twice = await voterOnFirst.request(POLL_VOTE_DESTINATION, {
      roomId: classId,
      pollId,
      options: [0],
    });
    expect(twice?.code).toBe('already-voted');
    await eventually(() => expect(pollsSeen.at(-1)).toMatchObject({ counts: [0, 2], voters: 2 }));
    expect(pollsOnSecond.at(-1)).toMatchObject({ counts: null, voters: 2 });

    // Reactions sent through both instances reach a subscriber of each summed, 4 updates a second at most.
    const reactionsOnFirst = (await teacherClient.watch(reactionTopic(classId))) as ReactionCounts[];
    const reactionsOnSecond = (await voter.watch(reactionTopic(classId))) as ReactionCounts[];
    const reacting: Array<Promise<unknown>> = [];
    for (let i = 0; i < 8; i += 1) {
      reacting.push(voterOnFirst.request(REACTION_DESTINATION, { roomId: classId, emoji: '👏' }));
      reacting.push(asker.request(REACTION_DESTINATION, { roomId: classId, emoji: '👏' }));
    }
    await Promise.all(reacting);
    const claps = (updates: ReactionCounts[]) =>
      updates.reduce((sum, update) => sum + (update.counts['👏'] ?? 0), 0);
    await eventually(() => {
      expect(claps(reactionsOnFirst)).toBe(16);
      expect(claps(reactionsOnSecond)).toBe(16);
    });
    for (const client of [teacherClient, voter]) {
      const times = client.arrivals.get(reactionTopic(classId)) ?? [];
      for (let i = 1; i < times.length; i += 1)
        expect((times[i] ?? 0) - (times[i - 1] ?? 0)).toBeGreaterThan(200);
    }

    // A deletion on the first instance reaches the second, and the history of both.
    const [message] = voter.messages as ChatMessage[];
    if (!message) throw new Error('no message');
    await teacherClient.request(CHAT_DELETE_DESTINATION, { roomId: classId, messageId: message.id });
    await eventually(() =>
      expect(moderation).toContainEqual({ type: 'messageDeleted', roomId: classId, messageId: message.id }),
    );
    for (const app of apps) {
      const history = await app.inject({
        url: `/find/chat/list/${classId}`,
        headers: { authorization: `Bearer ${teacher.token}` },
      });
      expect(history.json<ChatMessage[]>()).toEqual([]);
    }
  });
});
