import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createAccount, createUser, type TestUser } from '../../test/helper.ts';
import { jpeg, pixelFloodPng, png } from '../../test/images.ts';
import { imagePart, jsonPart, multipart, type Part } from '../../test/multipart.ts';
import { storedFiles } from '../../test/uploads-dir.ts';

let app: FastifyInstance;
beforeAll(async () => {
  app = await buildTestApp();
});
afterAll(() => app.close());

type UserData = { id: string; nickname: string; email: string | null; profile_image_path: string | null };

function patch(user: { token: string }, parts: Part[]) {
  const body = multipart(parts);
  return app.inject({
    method: 'PATCH',
    url: '/api/users',
    payload: body.payload,
    headers: { ...body.headers, ...bearer(user) },
  });
}

async function me(user: TestUser): Promise<UserData> {
  return expectOk<UserData>(await app.inject({ url: '/api/users', headers: bearer(user) }));
}

describe('GET /api/users', () => {
  it('answers the caller; 401 anonymous; 404 not registered', async () => {
    const user = await createUser(app, { nickname: '조회대상', email: 'who@example.com' });
    expect(await me(user)).toEqual({
      id: user.id,
      nickname: '조회대상',
      email: 'who@example.com',
      profile_image_path: null,
      introduction: null,
    });
    expectError(await app.inject('/api/users'), 401);
    expectError(await app.inject({ url: '/api/users', headers: { authorization: 'Bearer nonsense' } }), 401);
    expectError(await app.inject({ url: '/api/users', headers: bearer(await createAccount(app)) }), 404);
  });
});

describe('PATCH /api/users', () => {
  it('keeps absent fields, changes given ones, and clears the e-mail with null', async () => {
    const user = await createUser(app, { nickname: '원래이름', email: 'keep@example.com' });
    const renamed = expectOk<UserData>(
      await patch(user, [jsonPart('userUpdateDTO', { nickname: '새이름' })]),
    );
    expect(renamed).toMatchObject({ nickname: '새이름', email: 'keep@example.com' });
    const cleared = expectOk<UserData>(await patch(user, [jsonPart('userUpdateDTO', { email: null })]));
    expect(cleared).toMatchObject({ nickname: '새이름', email: null });
    // Existing clients send back the text they show for a user without an e-mail (it answered 400).
    const placeholder = jsonPart('userUpdateDTO', { nickname: '새이름', email: '이메일 정보 없음' });
    expect(expectOk<UserData>(await patch(user, [placeholder]))).toMatchObject({ email: null });
    const unchanged = expectOk<UserData>(await patch(user, [jsonPart('userUpdateDTO', {})]));
    expect(unchanged).toEqual(cleared);
    expect(await me(user)).toEqual(cleared);
  });

  it("keeping one's own nickname is not a conflict; another user's is a 409", async () => {
    const user = await createUser(app, { nickname: '내닉네임' });
    await createUser(app, { nickname: '남의닉', email: 'other@example.com' });
    expectOk(await patch(user, [jsonPart('userUpdateDTO', { nickname: '내닉네임' })]));
    expect(
      expectError(await patch(user, [jsonPart('userUpdateDTO', { nickname: '남의닉' })]), 409).message_kor,
    ).toContain('닉네임');
    expect(
      expectError(await patch(user, [jsonPart('userUpdateDTO', { email: 'OTHER@example.com' })]), 409)
        .message_kor,
    ).toContain('이메일');
    expect((await me(user)).nickname).toBe('내닉네임');
  });

  it('a new avatar replaces the old one, whose file is removed', async () => {
    const user = await createUser(app);
    const first = expectOk<UserData>(
      await patch(user, [jsonPart('userUpdateDTO', {}), imagePart(await jpeg(300, 300))]),
    );
    expect(first.profile_image_path).toMatch(/^\/uploads\/avatars\/.+\.jpg$/);
    expect((await app.inject(first.profile_image_path ?? '')).statusCode).toBe(200);

    const second = expectOk<UserData>(
      await patch(user, [
        imagePart(await png(50, 50, true), 'a.png', 'image/png'),
        jsonPart('userUpdateDTO', {}),
      ]),
    );
    expect(second.profile_image_path).toMatch(/^\/uploads\/avatars\/.+\.png$/);
    expect((await app.inject(second.profile_image_path ?? '')).statusCode).toBe(200);
    expect((await app.inject(first.profile_image_path ?? '')).statusCode).toBe(404);
    expect((await storedFiles(app)).filter((f) => first.profile_image_path?.endsWith(f))).toEqual([]);

    // a profile edit without an image keeps the avatar
    expect(
      expectOk<UserData>(await patch(user, [jsonPart('userUpdateDTO', { nickname: '사진유지' })]))
        .profile_image_path,
    ).toBe(second.profile_image_path);
  });

  it('profileImage: null removes the saved photo and deletes its file; with a new file it is a 400', async () => {
    const user = await createUser(app);
    const saved = expectOk<UserData>(
      await patch(user, [jsonPart('userUpdateDTO', {}), imagePart(await jpeg(120, 120))]),
    );
    const path = saved.profile_image_path ?? '';
    expect(path).toMatch(/^\/uploads\/avatars\/.+\.jpg$/);

    const refused = expectError(
      await patch(user, [jsonPart('userUpdateDTO', { profileImage: null }), imagePart(await jpeg(80, 80))]),
      400,
    );
    expect(refused.invalid_fields?.profileImage).toMatch(/[가-힣]/);
    expect((await me(user)).profile_image_path).toBe(path);

    const removed = expectOk<UserData>(
      await patch(user, [jsonPart('userUpdateDTO', { profileImage: null })]),
    );
    expect(removed.profile_image_path).toBeNull();
    expect((await me(user)).profile_image_path).toBeNull();
    expect((await app.inject(path)).statusCode).toBe(404);
    expect((await storedFiles(app)).filter((f) => path.endsWith(f))).toEqual([]);
    // Removing again (no photo left) is harmless.
    expect(
      expectOk<UserData>(await patch(user, [jsonPart('userUpdateDTO', { profileImage: null })]))
        .profile_image_path,
    ).toBeNull();
    // Only null means removal.
    expectError(await patch(user, [jsonPart('userUpdateDTO', { profileImage: 'x.jpg' })]), 400);
  });

  it('takes a real PNG named .jpg and sent as image/jpeg by its content, re-encoded to a 256x256 JPEG', async () => {
    const user = await createUser(app);
    const updated = expectOk<UserData>(
      await patch(user, [jsonPart('userUpdateDTO', {}), imagePart(await png(400, 300), 'me.jpg')]),
    );
    expect(updated.profile_image_path).toMatch(/^\/uploads\/avatars\/.+\.jpg$/);
    const image = await app.inject(updated.profile_image_path ?? '');
    expect(image.headers['content-type']).toBe('image/jpeg');
    const stored = await sharp(image.rawPayload).metadata();
    expect([stored.format, stored.width, stored.height]).toEqual(['jpeg', 256, 256]);
  });

  it('a refused change leaves the old avatar and stores no new file', async () => {
    const user = await createUser(app);
    const taken = await createUser(app);
    const before = expectOk<UserData>(
      await patch(user, [jsonPart('userUpdateDTO', {}), imagePart(await jpeg(100, 100))]),
    );
    const files = await storedFiles(app);
    expectError(
      await patch(user, [
        jsonPart('userUpdateDTO', { nickname: taken.nickname }),
        imagePart(await jpeg(100, 100)),
      ]),
      409,
    );
    expectError(
      await patch(user, [
        jsonPart('userUpdateDTO', {}),
        imagePart(await pixelFloodPng(), 'x.png', 'image/png'),
      ]),
      413,
    );
    expectError(
      await patch(user, [jsonPart('userUpdateDTO', {}), imagePart(Buffer.from('<svg/>'), 'x.jpg')]),
      415,
    );
    const sixMegabytes = Buffer.concat([await jpeg(16, 16), Buffer.alloc(6 * 1024 * 1024, 7)]);
    const body = expectError(
      await patch(user, [jsonPart('userUpdateDTO', { nickname: '바뀌면안됨' }), imagePart(sixMegabytes)]),
      413,
    );
    expect(body.message_kor).toContain('5MB');
    expect(await storedFiles(app)).toEqual(files);
    expect(await me(user)).toEqual(before);
  });

  it.each([
    ['an over-long nickname', [jsonPart('userUpdateDTO', { nickname: 'n'.repeat(21) })], 'nickname'],
    ['a blank nickname', [jsonPart('userUpdateDTO', { nickname: '   ' })], 'nickname'],
    ['an invalid e-mail', [jsonPart('userUpdateDTO', { email: 'a@' })], 'email'],
    ['malformed JSON', [{ name: 'userUpdateDTO', value: '{"nickname"' }], undefined],
    ['a missing userUpdateDTO part', [jsonPart('signupRequestDto', { nickname: '엉뚱한파트' })], undefined],
  ])('answers 400 to %s', async (_name, parts, field) => {
    const user = await createUser(app);
    const body = expectError(await patch(user, parts), 400);
    if (field !== undefined) expect(body.invalid_fields?.[field]).toMatch(/[가-힣]/);
    expect((await me(user)).nickname).toBe(user.nickname);
  });

  it('answers 401 anonymous and 404 for an account that is not registered', async () => {
    const body = multipart([jsonPart('userUpdateDTO', {})]);
    expectError(await app.inject({ method: 'PATCH', url: '/api/users', ...body }), 401);
    expectError(
      await patch(await createAccount(app), [jsonPart('userUpdateDTO', { nickname: '가입안함' })]),
      404,
    );
  });
});

describe('GET /api/users/checkNickname', () => {
  it('answers 200 when free and 409 when taken', async () => {
    await createUser(app, { nickname: '있는닉' });
    expect(
      expectOk(await app.inject({ url: '/api/users/checkNickname', query: { nickname: '없는닉' } })),
    ).toBe('success');
    expectError(await app.inject({ url: '/api/users/checkNickname', query: { nickname: '있는닉' } }), 409);
    // the same syllables in decomposed form are the same nickname
    expectError(
      await app.inject({ url: '/api/users/checkNickname', query: { nickname: '있는닉'.normalize('NFD') } }),
      409,
    );
  });

  it.each([[''], ['?nickname='], ['?nickname=a'], [`?nickname=${'x'.repeat(21)}`]])(
    'answers 400 to %s',
    async (query) => {
      expectError(await app.inject(`/api/users/checkNickname${query}`), 400);
    },
  );
});

describe('OpenAPI description', () => {
  it('documents the account routes, with the multipart parts', async () => {
    const response = await app.inject('/api/docs/json');
    expect(response.statusCode).toBe(200);
    const paths = (response.json() as { paths: Record<string, Record<string, { requestBody?: unknown }>> })
      .paths;
    for (const path of [
      '/api/auth/kakao/app-key',
      '/api/auth/kakao/callback',
      '/api/auth/refresh',
      '/api/auth/signup',
      '/api/users',
      '/api/users/checkNickname',
    ]) {
      expect(paths[path], path).toBeDefined();
    }
    expect(JSON.stringify(paths['/api/users']?.patch?.requestBody)).toContain('userUpdateDTO');
    expect(JSON.stringify(paths['/api/auth/signup']?.post?.requestBody)).toContain('imagefile');
  });
});
