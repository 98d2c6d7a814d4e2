import type { FastifyInstance } from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { CLASS_ROLES, type ClassItem } from '@sea/contract/classes';
import { MAX_ID } from '@sea/contract/ids';
import { classDto, insertClass, insertEnrolment, postClass } from '../../test/classes.ts';
import { expectError, expectOk } from '../../test/expect-envelope.ts';
import { gif, jpeg, pixelFloodPng, png } from '../../test/images.ts';
import { storedFiles } from '../../test/uploads-dir.ts';
import { imagePart, multipart } from '../../test/multipart.ts';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';

let app: FastifyInstance;
let teacher: TestUser;
let student: TestUser;

beforeAll(async () => {
  app = await buildTestApp();
  teacher = await createUser(app, { nickname: '바다선생' });
  student = await createUser(app);
});
afterAll(() => app.close());

const list = (query: string, user?: TestUser) =>
  app.inject({ method: 'GET', url: `/api/classes${query}`, headers: user ? bearer(user) : {} });

describe('POST /api/classes', () => {
  it('creates a class that is not live, with the announcement saved', async () => {
    const item = expectOk<ClassItem>(await postClass(app, teacher));
    expect(item).toMatchObject({
      user_id: teacher.id,
      instructor: '바다선생',
      category_id: 13,
      category: '프로그래밍',
      name: '타입스크립트 입문',
      announcement: '첫 수업은 월요일이에요.',
      prerequisite: null,
      banner_image_path: null,
      is_active: false,
      student_count: 0,
    });
    const detail = expectOk<ClassItem>(await app.inject(`/api/classes/${item.id}`));
    expect(detail).toEqual(item);
  });

  it('stores SQL-looking and markup text verbatim', async () => {
    const text = "'); drop table classes; -- <script>alert(1)</script>";
    const item = expectOk<ClassItem>(
      await postClass(app, teacher, classDto({ name: "x'; --", description: text })),
    );
    expect(item.name).toBe("x'; --");
    expect(item.description).toBe(text);
    expectOk(await list('?page=0'));
  });

  it.each([
    ['a short name', { name: ' a ' }, 'name'],
    ['a 25-character name', { name: '가'.repeat(25) }, 'name'],
    ['a blank goal', { object: '   ' }, 'object'],
    ['a 701-character description', { description: '가'.repeat(701) }, 'description'],
    ['a 701-character announcement', { announcement: '가'.repeat(701) }, 'announcement'],
    ['an unknown category', { categoryId: 99 }, 'categoryId'],
    ['a category id no category can have (above int4)', { categoryId: MAX_ID + 1 }, 'categoryId'],
    ['the largest possible but unknown category id', { categoryId: MAX_ID }, 'categoryId'],
    ['a string category', { categoryId: 'x' }, 'categoryId'],
  ])('answers 400 with invalid_fields for %s, storing nothing', async (_name, overrides, field) => {
    const before = expectOk<ClassItem[]>(await list('?target=created', teacher)).length;
    const body = expectError(await postClass(app, teacher, { ...classDto(), ...overrides }), 400);
    expect(body.invalid_fields?.[field]).toMatch(/[가-힣]/);
    expect(expectOk<ClassItem[]>(await list('?target=created', teacher))).toHaveLength(before);
  });

  it.each([
    [
      'malformed JSON',
      [{ name: 'classroomCreateDto', value: '{"name": ', filename: 'blob', contentType: 'application/json' }],
    ],
    ['a missing classroomCreateDto part', [{ name: 'other', value: 'x' }]],
  ])('answers 400 for %s', async (_name, parts) => {
    const { payload, headers } = multipart(parts);
    const response = await app.inject({
      method: 'POST',
      url: '/api/classes',
      payload,
      headers: { ...headers, ...bearer(teacher) },
    });
    expectError(response, 400);
  });

  it('answers 400 for a JSON body instead of multipart', async () => {
    expectError(
      await app.inject({
        method: 'POST',
        url: '/api/classes',
        headers: bearer(teacher),
        payload: classDto(),
      }),
      400,
    );
  });

  it('stores a banner and serves it under /uploads', async () => {
    const item = expectOk<ClassItem>(
      await postClass(app, teacher, classDto(), [imagePart(await jpeg(2000, 800))]),
    );
    expect(item.banner_image_path).toMatch(/^\/uploads\/banners\/.+\.jpg$/);
    const image = await app.inject(item.banner_image_path ?? '');
    expect(image.statusCode).toBe(200);
    expect(image.headers['content-type']).toBe('image/jpeg');
  });

  it.each([
    ['an opaque', false, 'jpg', 'image/jpeg', 'jpeg'],
    ['a transparent', true, 'png', 'image/png', 'png'],
  ])(
    'accepts %s PNG named .jpg and sent as image/jpeg by its content, stored as what it is',
    async (_name, alpha, extension, contentType, format) => {
      const item = expectOk<ClassItem>(
        await postClass(app, teacher, classDto(), [imagePart(await png(800, 300, alpha), 'photo.jpg')]),
      );
      expect(item.banner_image_path).toMatch(new RegExp(`^/uploads/banners/.+\\.${extension}$`));
      const image = await app.inject(item.banner_image_path ?? '');
      expect(image.statusCode).toBe(200);
      expect(image.headers['content-type']).toBe(contentType);
      const stored = await sharp(image.rawPayload).metadata();
      expect([stored.format, stored.width, stored.height]).toEqual([format, 800, 300]);
    },
  );

  it.each([
    [
      'a PNG renamed .jpg with wrong content',
      async () => imagePart(Buffer.from('not an image at all'), 'x.jpg'),
      415,
    ],
    ['a 6 MB file', async () => imagePart(Buffer.alloc(6 * 1024 * 1024, 1), 'big.jpg'), 413],
  ])('answers %s with its status and stores no class', async (_name, part, status) => {
    const before = expectOk<ClassItem[]>(await list('?target=created', teacher)).length;
    expectError(await postClass(app, teacher, classDto(), [await part()]), status as 413 | 415);
    expect(expectOk<ClassItem[]>(await list('?target=created', teacher))).toHaveLength(before);
    expectOk(await app.inject('/api/classes'));
  });

  it('answers 401 without a token', async () => {
    expectError(await app.inject({ method: 'POST', url: '/api/classes' }), 401);
  });
});

describe('GET /api/classes', () => {
  let fresh: FastifyInstance;
  let owner: TestUser;
  let learner: TestUser;
  const ids: number[] = [];
  beforeAll(async () => {
    fresh = await buildTestApp();
    owner = await createUser(fresh);
    learner = await createUser(fresh);
    const other = await createUser(fresh);
    const base = Date.parse('2026-01-01T00:00:00Z');
    // 30 classes; pairs share a creation time so the id must break ties.
    for (let i = 0; i < 30; i += 1) {
      const teacherId = i % 3 === 0 ? other.id : owner.id;
      ids.push(
        await insertClass(fresh, teacherId, {
          createdAt: new Date(base + Math.floor(i / 2) * 1000),
          categoryId: (i % 2) + 1,
          isActive: i % 5 === 0,
        }),
      );
    }
    for (const [index, count] of [
      [3, 3],
      [7, 2],
      [11, 2],
    ] as const) {
      const classId = ids[index] as number;
      for (let n = 0; n < count; n += 1) await insertEnrolment(fresh, classId, (await createUser(fresh)).id);
    }
    await insertEnrolment(fresh, ids[4] as number, learner.id);
    await insertEnrolment(fresh, ids[6] as number, learner.id);
  });
  afterAll(() => fresh.close());
  const get = (query: string, user?: TestUser) =>
    fresh.inject({ method: 'GET', url: `/api/classes${query}`, headers: user ? bearer(user) : {} });

  it('pages 12 at a time, newest first with the id breaking ties, [] past the end', async () => {
    const pages = [];
    for (let page = 0; page < 4; page += 1) pages.push(expectOk<ClassItem[]>(await get(`?page=${page}`)));
    expect(pages.map((p) => p.length)).toEqual([12, 12, 6, 0]);
    expect(pages.flat().map((c) => c.id)).toEqual([...ids].reverse());
    expect(expectOk<ClassItem[]>(await get(''))).toEqual(pages[0]);
  });

  it('filters by category and by live state', async () => {
    const second = expectOk<ClassItem[]>(await get('?page=0&category=2'));
    expect(second.every((c) => c.category_id === 2)).toBe(true);
    expect(second).toHaveLength(12);
    const live = expectOk<ClassItem[]>(await get('?target=live&page=0'));
    expect(live.map((c) => c.id)).toEqual(ids.filter((_, i) => i % 5 === 0).reverse());
  });

  it('ranks topten by enrolled students, ties newest first, ignoring page and category', async () => {
    const top = expectOk<ClassItem[]>(await get('?target=topten&page=3&category=2'));
    expect(top).toHaveLength(10);
    expect(top.slice(0, 3).map((c) => [c.id, c.student_count])).toEqual([
      [ids[3], 3],
      [ids[11], 2],
      [ids[7], 2],
    ]);
    expect(top.slice(3, 5).map((c) => c.id)).toEqual([ids[6], ids[4]]);
    // Ignored means not read: an unknown category, a negative or malformed page give the same ten.
    for (const query of ['page=-1', 'category=999', 'page=abc&category=x', `category=${2 ** 40}`, '']) {
      expect(expectOk<ClassItem[]>(await get(`?target=topten&${query}`)), query).toEqual(top);
    }
  });

  it('reads the home page’s quirky query (the page after a second ?) as the target and that page', async () => {
    const live = expectOk<ClassItem[]>(await get('?target=live&page=0'));
    expect(live.length).toBeGreaterThan(0);
    expect(expectOk<ClassItem[]>(await get('?target=live?page=0'))).toEqual(live);
    const top = expectOk<ClassItem[]>(await get('?target=topten'));
    expect(expectOk<ClassItem[]>(await get('?target=topten?page=0'))).toEqual(top);
    // The page hidden after the second '?' is read like any page; one given properly wins.
    expect(expectOk<ClassItem[]>(await get('?target=none?page=1'))).toEqual(
      expectOk<ClassItem[]>(await get('?page=1')),
    );
    expect(expectOk<ClassItem[]>(await get('?target=live?page=0&page=1'))).toEqual([]);
    expect(expectOk<ClassItem[]>(await get('?target=enrolled?page=0', learner))).toHaveLength(2);
    expectError(await get('?target=enrolled?page=0'), 401);
    expectError(await get('?target=popular?page=0'), 400);
    expectError(await get('?target=live?page=abc'), 400);
  });

  it('lists the caller’s created and enrolled classes, and needs a token for them', async () => {
    const created = expectOk<ClassItem[]>(await get('?target=created&page=0', owner));
    expect(created.every((c) => c.user_id === owner.id)).toBe(true);
    expect(created).toHaveLength(12);
    const enrolled = expectOk<ClassItem[]>(await get('?target=enrolled', learner));
    expect(enrolled.map((c) => c.id)).toEqual([ids[6], ids[4]]);
    expectError(await get('?target=created'), 401);
    expectError(await get('?target=enrolled'), 401);
    expectError(
      await fresh.inject({ url: '/api/classes?target=enrolled', headers: { authorization: 'Bearer nope' } }),
      401,
    );
  });

  it('answers 400 for an unknown target or a bad page, 404 for an unknown category', async () => {
    expectError(await get('?target=popular'), 400);
    expectError(await get('?page=-1'), 400);
    expectError(await get('?page=abc'), 400);
    expectError(await get('?category=999'), 404);
    expectError(await get(`?category=${MAX_ID}`), 404);
    expectError(await get('?category=abc'), 400);
    for (const category of [MAX_ID + 1, 2 ** 53 - 1, '99999999999999999999']) {
      const body = expectError(await get(`?category=${category}`), 400);
      expect(body.invalid_fields?.category).toMatch(/[가-힣]/);
    }
    expect(expectOk<ClassItem[]>(await get('?page=99999999'))).toEqual([]);
    // However far past the end (the largest page a number can hold), the answer is the same empty page.
    for (const target of ['', '&target=live', '&target=created', '&target=enrolled']) {
      expect(expectOk<ClassItem[]>(await get(`?page=${2 ** 53 - 1}${target}`, owner))).toEqual([]);
    }
    expectError(await get(`?page=${2 ** 53}`), 400);
  });

  it('answers each list’s exact total beside data, the same on every page', async () => {
    const totalOf = async (query: string, user?: TestUser) => {
      const response = await get(query, user);
      expect(response.statusCode).toBe(200);
      return (response.json() as { total: unknown }).total;
    };
    for (const page of [0, 1, 2, 5]) expect(await totalOf(`?page=${page}`)).toBe(30);
    expect(await totalOf('?category=2')).toBe(15);
    expect(await totalOf('?target=live')).toBe(ids.filter((_, i) => i % 5 === 0).length);
    expect(await totalOf('?target=live&category=1')).toBe(ids.filter((_, i) => i % 10 === 0).length);
    expect(await totalOf('?target=created', owner)).toBe(20);
    expect(await totalOf('?target=created&page=1&category=1', owner)).toBe(
      ids.filter((_, i) => i % 3 !== 0 && i % 2 === 0).length,
    );
    expect(await totalOf('?target=enrolled', learner)).toBe(2);
    expect(await totalOf('?target=topten')).toBe(10);
    // The array stays where existing clients read it.
    expect(expectOk<ClassItem[]>(await get('?page=2'))).toHaveLength(6);
  });

  it('never shows deleted classes', async () => {
    const victim = ids[25] as number; // the owner's, live, second newest
    expectOk(
      await fresh.inject({ method: 'DELETE', url: `/api/classes/${victim}/delete`, headers: bearer(owner) }),
    );
    for (const query of ['?page=0', '?target=topten', '?target=created', '?target=live']) {
      const items = expectOk<ClassItem[]>(await get(query, owner));
      expect(items.map((c) => c.id)).not.toContain(victim);
    }
    expectError(await fresh.inject(`/api/classes/${victim}`), 404);
  });
});

describe('GET/PATCH/DELETE /api/classes/{id} and role', () => {
  it('answers 404 for an unknown class and 400 for a bad id', async () => {
    expectError(await app.inject('/api/classes/999999'), 404);
    expectError(await app.inject('/api/classes/abc'), 400);
    expectError(await app.inject('/api/classes/0'), 400);
  });

  it('updates the fields present, clears optional ones with null, applies categoryId', async () => {
    const item = expectOk<ClassItem>(await postClass(app, teacher));
    const { payload, headers } = multipart([
      {
        name: 'classroomUpdateDto',
        value: JSON.stringify({ name: '새 제목', announcement: null, categoryId: 2 }),
      },
    ]);
    const updated = expectOk<ClassItem>(
      await app.inject({
        method: 'PATCH',
        url: `/api/classes/${item.id}`,
        payload,
        headers: { ...headers, ...bearer(teacher) },
      }),
    );
    expect(updated).toEqual({
      ...item,
      name: '새 제목',
      announcement: null,
      category_id: 2,
      category: '드로잉',
    });
  });

  it('replaces the banner and removes the old file', async () => {
    const item = expectOk<ClassItem>(
      await postClass(app, teacher, classDto(), [imagePart(await jpeg(600, 200))]),
    );
    const oldPath = item.banner_image_path ?? '';
    const { payload, headers } = multipart([
      { name: 'classroomUpdateDto', value: '{}' },
      imagePart(await png(600, 200), 'new.png', 'image/png'),
    ]);
    const updated = expectOk<ClassItem>(
      await app.inject({
        method: 'PATCH',
        url: `/api/classes/${item.id}`,
        payload,
        headers: { ...headers, ...bearer(teacher) },
      }),
    );
    expect(updated.banner_image_path).not.toBe(oldPath);
    expect(updated.name).toBe(item.name);
    expect((await app.inject(updated.banner_image_path ?? '')).statusCode).toBe(200);
    expect((await app.inject(oldPath)).statusCode).toBe(404);
  });

  it.each([
    ['an unknown category', 99],
    ['the largest possible but unknown category id', MAX_ID],
    ['a category id no category can have (above int4)', MAX_ID + 1],
  ])('answers 400 on categoryId for %s, changing nothing', async (_name, categoryId) => {
    const item = expectOk<ClassItem>(await postClass(app, teacher));
    const { payload, headers } = multipart([
      { name: 'classroomUpdateDto', value: JSON.stringify({ name: '바뀌면 안 됨', categoryId }) },
    ]);
    const body = expectError(
      await app.inject({
        method: 'PATCH',
        url: `/api/classes/${item.id}`,
        payload,
        headers: { ...headers, ...bearer(teacher) },
      }),
      400,
    );
    expect(body.invalid_fields?.categoryId).toMatch(/[가-힣]/);
    expect(expectOk<ClassItem>(await app.inject(`/api/classes/${item.id}`))).toEqual(item);
  });

  it.each([
    ['a 6 MB file', async () => imagePart(Buffer.alloc(6 * 1024 * 1024, 1), 'big.jpg'), 413],
    ['a pixel flood', async () => imagePart(await pixelFloodPng(), 'flood.png', 'image/png'), 413],
    ['text named .jpg', async () => imagePart(Buffer.from('not an image at all'), 'x.jpg'), 415],
    ['a GIF', async () => imagePart(await gif(40, 20), 'x.gif', 'image/gif'), 415],
  ])(
    'answers a replacing banner that is %s with %i, keeping the class, its banner and the stored files',
    async (_name, part, status) => {
      const item = expectOk<ClassItem>(
        await postClass(app, teacher, classDto(), [imagePart(await jpeg(600, 200))]),
      );
      const files = await storedFiles(app);
      const { payload, headers } = multipart([
        { name: 'classroomUpdateDto', value: JSON.stringify({ name: '바뀌면 안 됨' }) },
        await part(),
      ]);
      expectError(
        await app.inject({
          method: 'PATCH',
          url: `/api/classes/${item.id}`,
          payload,
          headers: { ...headers, ...bearer(teacher) },
        }),
        status as 413 | 415,
      );
      expect(expectOk<ClassItem>(await app.inject(`/api/classes/${item.id}`))).toEqual(item);
      expect(await storedFiles(app)).toEqual(files);
      expect((await app.inject(item.banner_image_path ?? '')).statusCode).toBe(200);
    },
  );

  it('refuses to clear a required field', async () => {
    const item = expectOk<ClassItem>(await postClass(app, teacher));
    const { payload, headers } = multipart([
      { name: 'classroomUpdateDto', value: JSON.stringify({ name: null }) },
    ]);
    const body = expectError(
      await app.inject({
        method: 'PATCH',
        url: `/api/classes/${item.id}`,
        payload,
        headers: { ...headers, ...bearer(teacher) },
      }),
      400,
    );
    expect(body.invalid_fields?.name).toBeDefined();
  });

  it('answers the role of teacher, student and stranger', async () => {
    const item = expectOk<ClassItem>(await postClass(app, teacher));
    await insertEnrolment(app, item.id, student.id);
    const stranger = await createUser(app);
    const role = async (user: TestUser) =>
      expectOk(await app.inject({ url: `/api/classes/${item.id}/role`, headers: bearer(user) }));
    expect(await role(teacher)).toBe(CLASS_ROLES.teacher);
    expect(await role(student)).toBe(CLASS_ROLES.student);
    expect(await role(stranger)).toBe(CLASS_ROLES.none);
    expectError(await app.inject({ url: '/api/classes/999999/role', headers: bearer(teacher) }), 404);
  });

  it('soft-deletes once; a second delete answers 404', async () => {
    const item = expectOk<ClassItem>(await postClass(app, teacher));
    const del = () =>
      app.inject({ method: 'DELETE', url: `/api/classes/${item.id}/delete`, headers: bearer(teacher) });
    expectOk(await del());
    expectError(await del(), 404);
  });
});
