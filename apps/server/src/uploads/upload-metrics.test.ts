import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { MAX_UPLOAD_BYTES } from '@sea/contract/uploads';
import { ROUTES } from '@sea/contract/paths';
import { classDto } from '../../test/classes.ts';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';
import { jpeg, png } from '../../test/images.ts';
import { imagePart, jsonPart, multipart, type Part } from '../../test/multipart.ts';
import { parsePrometheusText, valueOf, type Sample } from '../../test/prometheus-text.ts';

let app: FastifyInstance;
let base: string;
let teacher: TestUser;

beforeAll(async () => {
  app = await buildTestApp();
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  base = `http://127.0.0.1:${address.port}`;
  teacher = await createUser(app);
});
afterAll(() => app.close());

async function scrape(): Promise<Sample[]> {
  const response = await fetch(`${base}${ROUTES.metrics}`);
  expect(response.status).toBe(200);
  return parsePrometheusText(await response.text());
}

/** Sends a multipart form over HTTP, as a browser would; answers the status. */
async function send(method: 'PATCH' | 'POST', route: string, parts: Part[]): Promise<number> {
  const { payload, headers } = multipart(parts);
  const response = await fetch(`${base}${route}`, {
    method,
    headers: { ...headers, ...bearer(teacher) },
    body: new Uint8Array(payload),
  });
  await response.arrayBuffer();
  return response.status;
}

const profile = (image?: Part): Part[] => [
  jsonPart('userUpdateDTO', { introduction: '사진을 바꿨어요' }),
  ...(image ? [image] : []),
];

describe('upload metrics', () => {
  it('move by exactly the uploads sent: by kind and outcome, accepted bytes, one duration each', async () => {
    const before = await scrape();
    const avatars = [await jpeg(320, 240), await png(200, 200)];
    const avatarBytes = avatars.reduce((sum, image) => sum + image.length, 0);
    const banner = await jpeg(1200, 400);
    for (const image of avatars)
      expect(await send('PATCH', ROUTES.users, profile(imagePart(image)))).toBe(200);
    const created = await send('POST', ROUTES.classes, [
      jsonPart('classroomCreateDto', classDto({ name: '지표를 세는 강의' })),
      imagePart(banner, 'banner.jpg'),
    ]);
    expect(created).toBe(200);
    // Refused: not an image at all, and one byte over the limit. A form without an image is no upload.
    const text = Buffer.from('이건 사진이 아니에요');
    expect(await send('PATCH', ROUTES.users, profile(imagePart(text)))).toBe(415);
    const huge = Buffer.alloc(MAX_UPLOAD_BYTES + 1, 1);
    expect(await send('PATCH', ROUTES.users, profile(imagePart(huge)))).toBe(413);
    expect(await send('PATCH', ROUTES.users, profile())).toBe(200);
    const after = await scrape();

    const moved = (name: string, labels: Record<string, string> = {}) =>
      valueOf(after, name, labels) - valueOf(before, name, labels);
    expect(moved('uploads_total', { kind: 'avatar', outcome: 'accepted' })).toBe(2);
    expect(moved('uploads_total', { kind: 'banner', outcome: 'accepted' })).toBe(1);
    expect(moved('uploads_total', { kind: 'avatar', outcome: 'unsupported' })).toBe(1);
    expect(moved('uploads_total', { kind: 'avatar', outcome: 'too-large' })).toBe(1);
    expect(moved('uploads_total', { kind: 'avatar', outcome: 'invalid' })).toBe(0);
    expect(moved('upload_bytes_total', { kind: 'avatar' })).toBe(avatarBytes);
    expect(moved('upload_bytes_total', { kind: 'banner' })).toBe(banner.length);
    expect(moved('upload_duration_seconds_count', { kind: 'avatar', outcome: 'accepted' })).toBe(2);
    expect(moved('upload_duration_seconds_count', { kind: 'banner', outcome: 'accepted' })).toBe(1);
    expect(moved('upload_duration_seconds_count', { kind: 'avatar', outcome: 'too-large' })).toBe(1);
    expect(moved('upload_duration_seconds_sum', { kind: 'avatar', outcome: 'accepted' })).toBeGreaterThan(0);
  });
});
