import type { FastifyInstance } from 'fastify';
import { jwtVerify } from 'jose';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LIVE_TICKET_AUDIENCE, LiveTicketClaimsSchema, type LiveTicket } from '@sea/contract/live-ticket';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';

let app: FastifyInstance;
let teacher: TestUser;
let student: TestUser;
let classId: number;
beforeAll(async () => {
  app = await buildTestApp({ iceServers: [{ urls: 'turn:127.0.0.1:3478', username: 'u', credential: 'c' }] });
  teacher = await createUser(app, { nickname: '방송선생' });
  student = await createUser(app, { nickname: '학생1' });
  classId = await insertClass(app, teacher.id);
  await insertEnrolment(app, classId, student.id);
});
afterAll(() => app.close());

const state = async () =>
  expectOk<{ active: boolean }>(await app.inject(`/api/classes/${classId}/isActive`)).active;
const patch = (payload?: unknown, headers: Record<string, string> = {}) =>
  app.inject({
    method: 'PATCH',
    url: `/api/classes/${classId}/isActive`,
    headers: { ...bearer(teacher), ...headers },
    ...(payload === undefined ? {} : { payload: payload as object }),
  });

describe('live state', () => {
  it('sets idempotently and toggles with an empty body', async () => {
    expect(await state()).toBe(false);
    expect(expectOk<{ active: boolean }>(await patch({ active: true })).active).toBe(true);
    expect(expectOk<{ active: boolean }>(await patch({ active: true })).active).toBe(true);
    expect(await state()).toBe(true);
    expect(expectOk<{ active: boolean }>(await patch()).active).toBe(false);
    expect(
      expectOk<{ active: boolean }>(await patch('', { 'content-type': 'application/json' })).active,
    ).toBe(true);
    expect(expectOk<{ active: boolean }>(await patch({})).active).toBe(false);
    expectError(await patch({ active: 'yes' }), 400);
  });

  describe('under concurrency', () => {
    const set = async (active: boolean) => expectOk<{ active: boolean }>(await patch({ active })).active;
    const BATCH = 20;

    it('a batch of simultaneous sets to one value, from the other state, ends in it; each answer is it', async () => {
      for (const active of [true, false, true, false]) {
        expect(await state()).toBe(!active);
        const answers = await Promise.all(Array.from({ length: BATCH }, () => set(active)));
        // A toggle would answer both values and end wherever the parity of the batch left it.
        expect(answers).toEqual(Array.from({ length: BATCH }, () => active));
        expect(await state()).toBe(active);
      }
    });

    it('in mixed batches every answer is its own request, and the state is one of them', async () => {
      for (let round = 0; round < 3; round += 1) {
        const sets = Array.from({ length: BATCH }, (_, i) => (i + round) % 3 !== 0);
        const answers = await Promise.all(sets.map(set));
        expect(answers).toEqual(sets);
        expect(sets).toContain(await state());
      }
    });

    it('ends in the state last set, while other sets are still in flight when it is sent', async () => {
      for (const last of [true, false, true]) {
        // Sets sent one after another, each as soon as the previous answer came, while a flood runs.
        const flood = Promise.all(Array.from({ length: BATCH }, (_, i) => set(i % 2 === 0)));
        for (const active of [last, last, !last, !last, last]) expect(await set(active)).toBe(active);
        await flood;
        // Every earlier answer is back: the last sets sent (twice, so a toggle cannot pass) decide the state.
        const final = !(await state());
        expect(await set(final)).toBe(final);
        expect(await set(final)).toBe(final);
        expect(await state()).toBe(final);
      }
    });

    it('simultaneous toggles are each applied once: half answer live, and the state returns to where it was', async () => {
      await set(false);
      const answers = await Promise.all(
        Array.from({ length: BATCH }, async () => expectOk<{ active: boolean }>(await patch()).active),
      );
      expect(answers.filter(Boolean)).toHaveLength(BATCH / 2);
      expect(await state()).toBe(false);
    });
  });

  it('answers 418 to a student and 404 for an unknown class', async () => {
    expectError(
      await app.inject({
        method: 'PATCH',
        url: `/api/classes/${classId}/isActive`,
        headers: bearer(student),
        payload: { active: true },
      }),
      418,
    );
    expectError(await app.inject('/api/classes/999999/isActive'), 404);
  });
});

describe('live tickets', () => {
  it('gives members a ticket signed with MEDIA_SECRET for the media audience, each with its own id', async () => {
    const ids = new Set<string>();
    for (const [user, role] of [
      [teacher, 'teacher'],
      [student, 'student'],
    ] as const) {
      const data = expectOk<LiveTicket>(
        await app.inject({ url: `/api/classes/${classId}/live-ticket`, headers: bearer(user) }),
      );
      expect(data.mediaUrl).toBe(app.config.mediaUrl);
      expect(data.iceServers).toEqual(app.config.iceServers);
      const { payload } = await jwtVerify(data.ticket, new TextEncoder().encode(app.config.mediaSecret), {
        algorithms: ['HS256'],
        audience: LIVE_TICKET_AUDIENCE,
      });
      expect(LiveTicketClaimsSchema.parse(payload)).toEqual({
        sub: user.id,
        nickname: user.nickname,
        classId,
        role,
        jti: expect.any(String),
      });
      expect((payload.exp ?? 0) - (payload.iat ?? 0)).toBe(300);
      ids.add(payload.jti ?? '');
    }
    // Whether the class is live is not the ticket's business (the media service knows its rooms).
    expect(ids.size).toBe(2);
  });

  it('answers 418 to a stranger', async () => {
    const stranger = await createUser(app);
    expectError(
      await app.inject({ url: `/api/classes/${classId}/live-ticket`, headers: bearer(stranger) }),
      418,
    );
  });
});
