import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { accounts, classes, enrolments, refreshTokens, users } from '../db/schema.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createAccount, createUser } from '../../test/helper.ts';
import { jpeg, pixelFloodPng, png } from '../../test/images.ts';
import { devLogin } from '../../test/login.ts';
import { imagePart, jsonPart, multipart, type Part } from '../../test/multipart.ts';
import { storedFiles } from '../../test/uploads-dir.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

function signup(token: string, parts: Part[]) {
  return app.inject({ method: 'POST', url: '/api/auth/signup', ...withAuth(multipart(parts), token) });
}

function withAuth(body: ReturnType<typeof multipart>, token: string) {
  return { payload: body.payload, headers: { ...body.headers, authorization: `Bearer ${token}` } };
}

type UserData = { id: string; nickname: string; email: string | null; profile_image_path: string | null };

describe('GET /api/auth/signup', () => {
  it('answers 401 without a token, 404 for a logged-in account that never signed up, 200 when registered', async () => {
    expectError(await app.inject('/api/auth/signup'), 401);
    const account = await createAccount(app);
    expectError(await app.inject({ url: '/api/auth/signup', headers: bearer(account) }), 404);
    const user = await createUser(app);
    expect(expectOk(await app.inject({ url: '/api/auth/signup', headers: bearer(user) }))).toBe('success');
  });

  it('with answer=status answers 200 either way, saying whether the account signed up', async () => {
    const url = '/api/auth/signup?answer=status';
    const account = await createAccount(app);
    expect(expectOk(await app.inject({ url, headers: bearer(account) }))).toEqual({ registered: false });
    const user = await createUser(app);
    expect(expectOk(await app.inject({ url, headers: bearer(user) }))).toEqual({ registered: true });
    expectError(await app.inject(url), 401);
    expectError(await app.inject({ url: '/api/auth/signup?answer=x', headers: bearer(user) }), 400);
  });
});

describe('POST /api/auth/signup', () => {
  it('registers the account with a nickname and no e-mail', async () => {
    const account = await createAccount(app);
    const data = expectOk<UserData>(
      await signup(account.token, [jsonPart('signupRequestDto', { nickname: '파도타기', email: null })]),
    );
    expect(data).toEqual({
      id: account.id,
      nickname: '파도타기',
      email: null,
      profile_image_path: null,
      introduction: null,
    });
    expect(expectOk(await app.inject({ url: '/api/users', headers: bearer(account) }))).toEqual(data);
  });

  it('stores an avatar re-encoded to 256x256 and serves it', async () => {
    const account = await createAccount(app);
    const data = expectOk<UserData>(
      await signup(account.token, [
        jsonPart('signupRequestDto', { nickname: '아바타', email: 'Avatar@Example.com' }),
        imagePart(await jpeg(1200, 900, true)),
      ]),
    );
    expect(data.email).toBe('avatar@example.com');
    expect(data.profile_image_path).toMatch(/^\/uploads\/avatars\/[0-9a-f-]{36}\.jpg$/);
    const served = await app.inject(data.profile_image_path ?? '');
    expect(served.statusCode).toBe(200);
    expect(served.headers['cache-control']).toContain('immutable');
    const metadata = await sharp(served.rawPayload).metadata();
    expect([metadata.format, metadata.width, metadata.height, metadata.exif]).toEqual([
      'jpeg',
      256,
      256,
      undefined,
    ]);
  });

  it('answers 409 when the account is already registered', async () => {
    const user = await createUser(app);
    expectError(
      await signup(user.token, [jsonPart('signupRequestDto', { nickname: '새이름', email: null })]),
      409,
    );
  });

  it('answers 409 for a taken nickname or e-mail (any case), storing nothing', async () => {
    await createUser(app, { nickname: '중복닉', email: 'taken@example.com' });
    const account = await createAccount(app);
    const filesBefore = await storedFiles(app);
    const image = imagePart(await png(300, 300));
    const nickname = expectError(
      await signup(account.token, [jsonPart('signupRequestDto', { nickname: '중복닉' }), image]),
      409,
    );
    expect(nickname.message_kor).toContain('닉네임');
    const email = expectError(
      await signup(account.token, [
        jsonPart('signupRequestDto', { nickname: '다른닉', email: 'TAKEN@example.com' }),
        image,
      ]),
      409,
    );
    expect(email.message_kor).toContain('이메일');
    expect(await storedFiles(app)).toEqual(filesBefore);
    expect(await app.db.select().from(users).where(eq(users.id, account.id))).toEqual([]);
  });

  it('two simultaneous sign-ups with one nickname: exactly one 200 and one 409', async () => {
    const [a, b] = await Promise.all([createAccount(app), createAccount(app)]);
    const body = [jsonPart('signupRequestDto', { nickname: '동시가입', email: null })];
    const answers = await Promise.all([signup(a.token, body), signup(b.token, body)]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
    expect(await app.db.select().from(users).where(eq(users.nickname, '동시가입'))).toHaveLength(1);
  });

  it('ten simultaneous sign-ups with one nickname, some with avatars: one user, one file', async () => {
    const racers = await Promise.all(Array.from({ length: 10 }, () => createAccount(app)));
    const filesBefore = (await storedFiles(app)).length;
    const image = imagePart(await jpeg(64, 64));
    const answers = await Promise.all(
      racers.map((account) =>
        signup(account.token, [jsonPart('signupRequestDto', { nickname: '열명경쟁' }), image]),
      ),
    );
    expect(answers.filter((r) => r.statusCode === 200)).toHaveLength(1);
    for (const r of answers.filter((r) => r.statusCode !== 200)) expectError(r, 409);
    expect((await storedFiles(app)).length).toBe(filesBefore + 1);
  });

  it('the same account signing up twice at once gets one 200 and one 409', async () => {
    const account = await createAccount(app);
    const answers = await Promise.all([
      signup(account.token, [jsonPart('signupRequestDto', { nickname: '두번가입1' })]),
      signup(account.token, [jsonPart('signupRequestDto', { nickname: '두번가입2' })]),
    ]);
    expect(answers.map((r) => r.statusCode).sort()).toEqual([200, 409]);
  });

  it('stores SQL-looking text verbatim', async () => {
    const account = await createAccount(app);
    const nickname = "R'); DROP TABLE--";
    const data = expectOk<UserData>(
      await signup(account.token, [jsonPart('signupRequestDto', { nickname })]),
    );
    expect(data.nickname).toBe(nickname);
    expect((await app.db.select().from(users).where(eq(users.id, account.id)))[0]?.nickname).toBe(nickname);
    expectError(await app.inject({ url: '/api/users/checkNickname', query: { nickname } }), 409);
  });

  describe('bad input: clear 4xx, nothing stored, the server keeps serving', () => {
    const cases: Array<[string, () => Promise<Part[]>, number, string?]> = [
      [
        'a nickname over 20 characters',
        async () => [jsonPart('signupRequestDto', { nickname: '가'.repeat(21) })],
        400,
        'nickname',
      ],
      [
        'a one-character nickname',
        async () => [jsonPart('signupRequestDto', { nickname: ' 가 ' })],
        400,
        'nickname',
      ],
      ['a missing nickname', async () => [jsonPart('signupRequestDto', { email: null })], 400, 'nickname'],
      [
        'an invalid e-mail',
        async () => [jsonPart('signupRequestDto', { nickname: '메일오류', email: 'not-an-email' })],
        400,
        'email',
      ],
      ['a JSON array instead of an object', async () => [jsonPart('signupRequestDto', [1, 2])], 400],
      [
        'malformed JSON',
        async () => [
          {
            name: 'signupRequestDto',
            value: '{"nickname": ',
            filename: 'blob',
            contentType: 'application/json',
          },
        ],
        400,
      ],
      ['a missing signupRequestDto part', async () => [{ name: 'nickname', value: '부분누락' }], 400],
      [
        'a PNG renamed .jpg with wrong content',
        async () => [
          jsonPart('signupRequestDto', { nickname: '가짜사진' }),
          imagePart(Buffer.from('this is text, not a picture'), 'photo.jpg'),
        ],
        415,
      ],
      [
        'a GIF',
        async () => [
          jsonPart('signupRequestDto', { nickname: '움짤' }),
          imagePart(
            await sharp({ create: { width: 4, height: 4, channels: 3, background: '#000' } })
              .gif()
              .toBuffer(),
            'a.png',
            'image/png',
          ),
        ],
        415,
      ],
      [
        'a 6 MB file',
        async () => [
          jsonPart('signupRequestDto', { nickname: '큰파일' }),
          imagePart(Buffer.concat([await jpeg(8, 8), Buffer.alloc(6 * 1024 * 1024, 1)])),
        ],
        413,
      ],
      [
        'a pixel flood (8x8 PNG declaring 50000x50000)',
        async () => [
          jsonPart('signupRequestDto', { nickname: '픽셀폭탄' }),
          imagePart(await pixelFloodPng(), 'flood.png', 'image/png'),
        ],
        413,
      ],
    ];

    it.each(cases)('%s', async (_name, parts, status, field) => {
      const account = await createAccount(app);
      const filesBefore = await storedFiles(app);
      const body = expectError(await signup(account.token, await parts()), status as 400);
      if (field !== undefined) expect(body.invalid_fields?.[field]).toMatch(/[가-힣]/);
      expect(await app.db.select().from(users).where(eq(users.id, account.id))).toEqual([]);
      expect(await storedFiles(app)).toEqual(filesBefore);
      // the same account can still sign up properly afterwards
      expectOk(
        await signup(account.token, [
          jsonPart('signupRequestDto', { nickname: `복구${account.id.slice(0, 6)}` }),
        ]),
      );
    });

    it('a JSON body instead of multipart', async () => {
      const account = await createAccount(app);
      const response = await app.inject({
        method: 'POST',
        url: '/api/auth/signup',
        headers: bearer(account),
        payload: { nickname: '제이슨' },
      });
      expectError(response, 400);
    });
  });
});

describe('DELETE /api/auth/signup (withdrawal)', () => {
  it('answers 401 without a token and 404 for an account that is not registered', async () => {
    expectError(await app.inject({ method: 'DELETE', url: '/api/auth/signup' }), 401);
    const account = await createAccount(app);
    expectError(
      await app.inject({ method: 'DELETE', url: '/api/auth/signup', headers: bearer(account) }),
      404,
    );
  });

  it('soft-deletes the user and their classes, removes their enrolments with exact counts, ends their logins', async () => {
    const login = await devLogin(app, '777001');
    const { sub } = await app.tokens.verifyAccess(login.accessToken);
    const me = { token: login.accessToken };
    expectOk(await signup(login.accessToken, [jsonPart('signupRequestDto', { nickname: '탈퇴예정' })]));
    const teacher = await createUser(app);
    const other = await createUser(app);
    const [theirClass, myClass] = await app.db
      .insert(classes)
      .values([
        { teacherId: teacher.id, categoryId: 1, name: '남의 강의', object: '목표', description: '설명' },
        {
          teacherId: sub,
          categoryId: 1,
          name: '나의 강의',
          object: '목표',
          description: '설명',
          isActive: true,
        },
      ])
      .returning();
    if (theirClass === undefined || myClass === undefined) throw new Error('no classes');
    await app.db.insert(enrolments).values([
      { classId: theirClass.id, userId: sub },
      { classId: theirClass.id, userId: other.id },
      { classId: myClass.id, userId: other.id },
    ]);
    await app.db.update(classes).set({ studentCount: 2 }).where(eq(classes.id, theirClass.id));
    await app.db.update(classes).set({ studentCount: 1 }).where(eq(classes.id, myClass.id));

    expect(
      expectOk(await app.inject({ method: 'DELETE', url: '/api/auth/signup', headers: bearer(me) })),
    ).toBe('success');

    expectError(await app.inject({ url: '/api/auth/signup', headers: bearer(me) }), 404);
    expectError(await app.inject({ url: '/api/users', headers: bearer(me) }), 404);
    const [user] = await app.db.select().from(users).where(eq(users.id, sub));
    expect(user?.deletedAt).not.toBeNull();
    const after = await app.db.select().from(classes);
    expect(after.find((c) => c.id === theirClass.id)).toMatchObject({ studentCount: 1, deletedAt: null });
    expect(after.find((c) => c.id === myClass.id)).toMatchObject({
      isActive: false,
      deletedAt: expect.any(Date),
    });
    const left = await app.db.select().from(enrolments);
    expect(left.filter((e) => e.userId === sub)).toEqual([]);
    expect(left.filter((e) => e.classId === theirClass.id)).toHaveLength(1);
    const tokens = await app.db.select().from(refreshTokens).where(eq(refreshTokens.accountId, sub));
    expect(tokens.every((t) => t.revokedAt !== null)).toBe(true);
    expectError(
      await app.inject({
        method: 'POST',
        url: '/api/auth/refresh',
        payload: { refreshToken: login.refreshToken },
      }),
      401,
    );
    // withdrawing twice is a 404
    expectError(await app.inject({ method: 'DELETE', url: '/api/auth/signup', headers: bearer(me) }), 404);
  });

  it('the same Kakao identity can sign up again after withdrawal, and its old avatar is removed', async () => {
    const first = await devLogin(app, '888001');
    const old = expectOk<UserData>(
      await signup(first.accessToken, [
        jsonPart('signupRequestDto', { nickname: '돌아온탕아' }),
        imagePart(await jpeg(40, 40)),
      ]),
    );
    expectOk(
      await app.inject({
        method: 'DELETE',
        url: '/api/auth/signup',
        headers: bearer({ token: first.accessToken }),
      }),
    );
    expectOk(await app.inject({ url: '/api/users/checkNickname', query: { nickname: '돌아온탕아' } }));

    const again = await devLogin(app, '888001');
    const data = expectOk<UserData>(
      await signup(again.accessToken, [
        jsonPart('signupRequestDto', { nickname: '돌아온탕아', email: 'back@example.com' }),
      ]),
    );
    expect(data).toMatchObject({
      id: old.id,
      nickname: '돌아온탕아',
      email: 'back@example.com',
      profile_image_path: null,
    });
    expect((await app.inject(old.profile_image_path ?? '')).statusCode).toBe(404);
    expect(await app.db.select().from(accounts).where(eq(accounts.providerUserId, '888001'))).toHaveLength(1);
  });
});
