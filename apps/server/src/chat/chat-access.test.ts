import { eq } from 'drizzle-orm';
import { describe, expect, it, vi } from 'vitest';
import type { Database } from '../db/database.ts';
import { enrolments } from '../db/schema.ts';
import { createUser } from '../../test/helper.ts';
import { appWithClass } from '../../test/classes.ts';
import { enrolStudent } from '../../test/classroom.ts';
import { DatabaseChatAccess } from './chat-access.ts';

const { app, teacher, student, classId } = await appWithClass();

/** The app's database, counting the queries made through `select`. */
function countingDb(): { db: Database; selects: () => number } {
  let selects = 0;
  const db = new Proxy(app.db, {
    get(target, property, receiver) {
      const value = Reflect.get(target, property, receiver) as unknown;
      if (property !== 'select' || typeof value !== 'function') return value;
      return (...args: unknown[]) => {
        selects += 1;
        return (value as (...a: unknown[]) => unknown).apply(target, args);
      };
    },
  });
  return { db, selects: () => selects };
}

const verifyAccess = () => Promise.reject(new Error('not used'));

/** Access on a clock the test moves (`advance`), answers reused 5 s and, for members, 60 s more while read again. */
function clockedAccess() {
  let now = 1_000_000;
  const { db, selects } = countingDb();
  const access = new DatabaseChatAccess({
    db,
    verifyAccess,
    membershipTtlMs: 5_000,
    membershipStaleMs: 60_000,
    now: () => now,
  });
  return { access, selects, advance: (ms: number) => (now += ms) };
}

describe('DatabaseChatAccess', () => {
  it("looks up many members' roles arriving at once in one query, each with its own answer", async () => {
    const others = await Promise.all(Array.from({ length: 40 }, () => enrolStudent(app, classId)));
    const stranger = await createUser(app);
    const { db, selects } = countingDb();
    const access = new DatabaseChatAccess({ db, verifyAccess });

    // A storm's first votes: every member's first SEND in the same moment, the cache empty.
    const asked = [teacher.id, student.id, stranger.id, ...others.map((other) => other.id)];
    const roles = await Promise.all(asked.map((userId) => access.roleOf(classId, userId)));

    expect(roles.slice(0, 3)).toEqual(['teacher', 'student', null]);
    expect(new Set(roles.slice(3))).toEqual(new Set(['student']));
    expect(selects()).toBe(1);
    // Cached now: no query until the entries expire.
    expect(await access.roleOf(classId, student.id)).toBe('student');
    expect(selects()).toBe(1);
  });

  it("reads a member's expired answer again behind the SEND it lets through, and sees a student who left", async () => {
    const leaving = await enrolStudent(app, classId);
    const { access, selects, advance } = clockedAccess();
    expect(await access.roleOf(classId, leaving.id)).toBe('student');
    await app.db.delete(enrolments).where(eq(enrolments.userId, leaving.id));
    advance(4_000);
    expect(await access.roleOf(classId, leaving.id)).toBe('student');
    expect(selects()).toBe(1);
    // Expired: answered at once from the cache, once, while the database is asked.
    advance(2_000);
    expect(
      await Promise.all([access.roleOf(classId, leaving.id), access.roleOf(classId, leaving.id)]),
    ).toEqual(['student', 'student']);
    await vi.waitFor(() => expect(selects()).toBe(2));
    await vi.waitFor(async () => expect(await access.roleOf(classId, leaving.id)).toBeNull());
    // A non-member's answer is never used once expired: joining takes effect at the next SEND after it.
    await app.db.insert(enrolments).values({ classId, userId: leaving.id });
    advance(6_000);
    expect(await access.roleOf(classId, leaving.id)).toBe('student');
    expect(selects()).toBe(3);
  });

  it("waits for the database once a member's answer is older than its stale time", async () => {
    const { access, selects, advance } = clockedAccess();
    const leaving = await enrolStudent(app, classId);
    expect(await access.roleOf(classId, leaving.id)).toBe('student');
    await app.db.delete(enrolments).where(eq(enrolments.userId, leaving.id));
    advance(65_001);
    expect(await access.roleOf(classId, leaving.id)).toBeNull();
    expect(selects()).toBe(2);
  });

  it('gives every waiting lookup the failure of their shared query', async () => {
    const failing = new Proxy(app.db, {
      get(target, property, receiver) {
        if (property === 'select')
          return () => {
            throw new Error('database gone');
          };
        return Reflect.get(target, property, receiver) as unknown;
      },
    });
    const access = new DatabaseChatAccess({ db: failing, verifyAccess });
    const results = await Promise.allSettled([
      access.roleOf(classId, teacher.id),
      access.roleOf(classId, student.id),
    ]);
    expect(results.map((result) => result.status)).toEqual(['rejected', 'rejected']);
  });
});
