import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { ClassItem } from '@sea/contract/classes';
import { insertClass, insertEnrolment } from '../../test/classes.ts';
import { expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';

let app: FastifyInstance;
let teacher: TestUser;
let classId: number;
beforeAll(async () => {
  app = await buildTestApp({ readCacheMs: 60_000 });
  teacher = await createUser(app);
  classId = await insertClass(app, teacher.id);
});
afterAll(() => app.close());

const count = async () => expectOk<ClassItem>(await app.inject(`/api/classes/${classId}`)).student_count;

describe('read cache of class lists and details', () => {
  it('answers repeated reads from memory until a write request comes through this server', async () => {
    expect(await count()).toBe(0);
    await insertEnrolment(app, classId, (await createUser(app)).id); // behind the server's back
    expect(await count()).toBe(0);
    const student = await createUser(app);
    expectOk(
      await app.inject({ method: 'POST', url: `/api/classes/${classId}/enroll`, headers: bearer(student) }),
    );
    expect(await count()).toBe(2);
  });

  it('never shares a caller’s own lists', async () => {
    const other = await createUser(app);
    const created = (user: TestUser, query: string) =>
      app.inject({ url: `/api/classes${query}`, headers: bearer(user) });
    for (const query of ['?target=created', '?target=cr%65ated', '?target=live&target=created']) {
      const mine = await created(teacher, query);
      const theirs = await created(other, query);
      if (mine.statusCode === 200) expect(mine.json().data).not.toEqual(theirs.json().data);
    }
    expect(expectOk<ClassItem[]>(await created(teacher, '?target=created')).map((c) => c.id)).toContain(
      classId,
    );
  });

  it('tags answers and answers a matching If-None-Match with 304 and no body, from memory or not', async () => {
    const url = `/api/classes/${classId}`;
    const first = await app.inject(url);
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^W\/"[\w-]+"$/);
    const hit = await app.inject({ url, headers: { 'if-none-match': etag } });
    expect(hit.statusCode).toBe(304);
    expect(hit.body).toBe('');
    expect(hit.headers.etag).toBe(etag);
    expect(hit.headers['x-content-type-options']).toBe('nosniff');
    expect((await app.inject({ url, headers: { 'if-none-match': '"other"' } })).statusCode).toBe(200);
    // A write empties the cache: the refilled answer has a new timestamp but the same data, hence the same tag.
    await app.inject({ method: 'POST', url: '/api/no-such-write' });
    const refilled = await app.inject({ url, headers: { 'if-none-match': etag } });
    expect(refilled.statusCode).toBe(304);
    // Changed data: a new tag and the full answer.
    const student = await createUser(app);
    await app.inject({ method: 'POST', url: `/api/classes/${classId}/enroll`, headers: bearer(student) });
    const changed = await app.inject({ url, headers: { 'if-none-match': etag } });
    expect(changed.statusCode).toBe(200);
    expect(changed.headers.etag).not.toBe(etag);
  });
});
