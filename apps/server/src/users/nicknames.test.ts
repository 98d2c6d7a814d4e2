import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import { eq } from 'drizzle-orm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INVISIBLE_RANGES, SPACE_RANGES } from '@sea/contract/invisible-characters';
import { USER_MESSAGES } from '@sea/contract/users';
import { accounts, users } from '../db/schema.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createAccount, createUser } from '../../test/helper.ts';
import { postSignup } from '../../test/login.ts';
import { jsonPart, multipart } from '../../test/multipart.ts';
import { uniqueViolation } from './unique-violation.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

async function signUp(nickname: string) {
  const { token } = await createAccount(app);
  return postSignup(app, token, nickname);
}

/** Inserts a user straight into the table, past the contract's rules (as an older server could have). */
async function insertRaw(nickname: string, createdAt = new Date()) {
  const id = randomUUID();
  await app.db.insert(accounts).values({ id, provider: 'dev', providerUserId: `raw-${id}` });
  await app.db.insert(users).values({ id, nickname, createdAt });
  return id;
}

describe('nicknames are visible text', () => {
  it.each([
    ['a zero-width space after a taken name', '파도선생\u200b'],
    ['a zero-width joiner inside', '파도\u200d선생'],
    ['Hangul fillers only', '\u3164\u3164\u3164'],
    ['a halfwidth Hangul filler', '바다\uffa0'],
    ['a right-to-left override', '파도\u202e생선'],
    ['a left-to-right mark', '\u200e파도선생'],
    ['a word joiner', '파\u2060도'],
    ['a byte order mark inside', '파\ufeff도'],
    ['a soft hyphen', '파\u00ad도'],
    ['a blank braille pattern', '⠀⠀'],
    ['a tag character', '파도\u{e0041}'],
  ])('refuses %s', async (_name, nickname) => {
    const body = expectError(await signUp(nickname), 400);
    expect(body.invalid_fields?.nickname).toBe(USER_MESSAGES.nicknameInvisible);
  });

  it.each([
    ['an emoji family (zero-width joiners)', '👨‍👩‍👧 가족'],
    ['an emoji with a variation selector', '❤️바다'],
    ['a keycap', '1️⃣등'],
    ['a subdivision flag (tags)', '🏴󠁧󠁢󠁳󠁣󠁴󠁿 스코틀랜드'],
    ['20 emoji', '🐳'.repeat(20)],
  ])('takes %s', async (_name, nickname) => {
    expect(expectOk<{ nickname: string }>(await signUp(nickname)).nickname).toBe(nickname);
  });

  it('refuses marks stacked on a letter (Zalgo), at sign-up and at the check, and says why', async () => {
    const zalgo = [...'admin'].map((letter) => `${letter}\u0301\u0316\u0334\u0347`).join('');
    const body = expectError(await signUp(zalgo), 400);
    expect(body.invalid_fields?.nickname).toBe(USER_MESSAGES.nicknameMarks);
    const check = await app.inject({ url: '/api/users/checkNickname', query: { nickname: zalgo } });
    expect(check.statusCode).toBe(400);
    expect(expectOk<{ nickname: string }>(await signUp('Nguyễn 선생')).nickname).toBe('Nguyễn 선생');
  });

  it('stores the NFC form: a name typed as jamo is the same name', async () => {
    const jamo = '\u1100\u1161\u11a8\u1112\u1161'; // 각하
    expect(expectOk<{ nickname: string }>(await signUp(jamo)).nickname).toBe('각하');
    expectError(await signUp('각하'), 409);
  });
});

describe('nicknames are unique by what they show', () => {
  it.each([
    ['an ideographic space', '물결 선생', '물결\u3000선생'],
    ['a no-break space', '등대 지기', '등대\u00a0지기'],
    ['two spaces', '산호 쌤', '산호  쌤'],
    ['an en space', '고래 박사', '고래\u2002박사'],
  ])('a look-alike with %s is a 409 at sign-up and at the check', async (_name, taken, lookAlike) => {
    expectOk(await signUp(taken));
    expect(
      (await app.inject({ url: '/api/users/checkNickname', query: { nickname: lookAlike } })).statusCode,
    ).toBe(409);
    expect(expectError(await signUp(lookAlike), 409).message_kor).toContain('닉네임');
  });

  it.each([
    ['Cyrillic а', 'аdmin'],
    ['full-width letters', 'ａｄｍｉｎ'],
    ['a combining mark', 'admi\u0301n'],
    ['Greek ο for o', 'mοdel'],
  ])('a look-alike by %s is a 409 that says it looks the same', async (_name, lookAlike) => {
    const taken = lookAlike.includes('ο') ? 'model' : 'admin';
    await signUp(taken);
    const check = await app.inject({ url: '/api/users/checkNickname', query: { nickname: lookAlike } });
    expect(expectError(check, 409).message_kor).toBe(
      '이미 있는 닉네임과 똑같아 보여서 쓸 수 없어요. 다른 닉네임을 골라 주세요.',
    );
    expect(expectError(await signUp(lookAlike), 409).message_kor).toContain('똑같아 보이는');
    const same = await app.inject({ url: '/api/users/checkNickname', query: { nickname: taken } });
    expect(expectError(same, 409).message_kor).toBe('이미 사용 중인 닉네임이에요.');
  });

  it('Korean names that only share jamo stay distinct', async () => {
    for (const nickname of ['각까', '갂가', '안나', '아난']) {
      expect(expectOk<{ nickname: string }>(await signUp(nickname)).nickname).toBe(nickname);
    }
  });

  it('the database itself refuses a look-alike that skipped the rules', async () => {
    await insertRaw('파도선생');
    for (const lookAlike of ['파도선생\u200b', '\u200f파도선생', '파도\u3164선생', ' 파도선생\u2800']) {
      const failure = await insertRaw(lookAlike).catch((error: unknown) => error);
      expect(uniqueViolation(failure), lookAlike).toBe('users_nickname_key');
    }
  });

  it('simultaneous sign-ups with look-alike names: exactly one succeeds', async () => {
    const names = Array.from({ length: 10 }, (_, i) => (i % 2 === 0 ? '동시 가입' : '동시\u3000가입'));
    const statuses = (await Promise.all(names.map(signUp))).map((response) => response.statusCode);
    expect(statuses.filter((status) => status === 200)).toHaveLength(1);
    expect(statuses.filter((status) => status === 409)).toHaveLength(9);
  });

  it('the key removes every invisible character the contract names, and nothing next to them', async () => {
    const invisible = INVISIBLE_RANGES.flatMap(([from, to]) =>
      Array.from({ length: to - from + 1 }, (_, i) => String.fromCodePoint(from + i)),
    ).join('');
    const id = await insertRaw(`키${invisible}검사`);
    const [row] = await app.db.select({ key: users.nicknameKey }).from(users).where(eq(users.id, id));
    expect(row?.key).toBe('키검사');

    const inRanges = (codePoint: number) =>
      [...INVISIBLE_RANGES, ...SPACE_RANGES].some(([from, to]) => codePoint >= from && codePoint <= to);
    const neighbours = INVISIBLE_RANGES.flatMap(([from, to]) => [from - 1, to + 1])
      .filter((codePoint) => !inRanges(codePoint))
      .map((codePoint) => String.fromCodePoint(codePoint))
      .join('');
    const kept = await insertRaw(`이웃${neighbours}`);
    const [keptRow] = await app.db.select({ key: users.nicknameKey }).from(users).where(eq(users.id, kept));
    expect(keptRow?.key).toBe(`이웃${neighbours}`.normalize('NFC'));
  });

  it('a profile change to a look-alike is a 409; a withdrawn name is free again', async () => {
    const leaving = await createUser(app, { nickname: '떠난 사람' });
    const other = await createUser(app);
    const { payload, headers } = multipart([jsonPart('userUpdateDTO', { nickname: '떠난\u3000사람' })]);
    const change = () =>
      app.inject({ method: 'PATCH', url: '/api/users', payload, headers: { ...headers, ...bearer(other) } });
    expectError(await change(), 409);
    await app.inject({ method: 'DELETE', url: '/api/auth/signup', headers: bearer(leaving) });
    expect(expectOk<{ nickname: string }>(await change()).nickname).toBe('떠난\u3000사람');
  });
});
