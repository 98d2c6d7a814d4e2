import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';
import { jpeg } from '../../test/images.ts';
import { users } from '../db/schema.ts';
import { originAllowed, PREFLIGHT_MAX_AGE_S } from './cors.ts';

const FRONT = 'http://front.example:8080';
const OTHER = 'http://evil.example';
const API = 'https://api.example.test';

function preflight(app: FastifyInstance, origin: string, url = '/api/users', method = 'PATCH') {
  return app.inject({
    method: 'OPTIONS',
    url,
    headers: {
      origin,
      'access-control-request-method': method,
      'access-control-request-headers': 'authorization,content-type',
    },
  });
}

describe('CORS with CORS_ORIGINS', () => {
  let app: FastifyInstance;
  let user: TestUser;
  beforeAll(async () => {
    app = await buildTestApp({ corsOrigins: [FRONT, 'capacitor://localhost'], publicUrl: API });
    user = await createUser(app);
  });
  afterAll(() => app.close());

  it('answers a listed origin’s preflight for the bearer header and JSON bodies, without credentials', async () => {
    const response = await preflight(app, FRONT);
    expect(response.statusCode).toBe(204);
    expect(response.headers['access-control-allow-origin']).toBe(FRONT);
    expect(String(response.headers['access-control-allow-methods']).split(', ')).toEqual(
      expect.arrayContaining(['GET', 'POST', 'PATCH', 'DELETE']),
    );
    expect(response.headers['access-control-allow-headers']).toBe('Authorization, Content-Type');
    expect(response.headers['access-control-max-age']).toBe(String(PREFLIGHT_MAX_AGE_S));
    expect(response.headers['access-control-allow-credentials']).toBeUndefined();
    expect(response.headers.vary).toMatch(/Origin/);
  });

  it('lets a listed origin read bearer answers, errors included, and Retry-After', async () => {
    for (const origin of [FRONT, 'capacitor://localhost']) {
      const response = await app.inject({ url: '/api/users', headers: { origin, ...bearer(user) } });
      expect(response.statusCode).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe(origin);
      expect(response.headers['access-control-expose-headers']).toBe('Retry-After');
    }
    const refused = await app.inject({ url: '/api/users', headers: { origin: FRONT } });
    expect(refused.statusCode).toBe(401);
    expect(refused.headers['access-control-allow-origin']).toBe(FRONT);
  });

  it('gives any other origin no CORS headers, and its preflight a 404', async () => {
    const response = await preflight(app, OTHER);
    expect(response.statusCode).toBe(404);
    expect(response.headers['access-control-allow-origin']).toBeUndefined();
    const read = await app.inject({ url: '/api/categories', headers: { origin: OTHER } });
    expect(read.statusCode).toBe(200);
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    // Same host, other port or scheme: another origin too.
    for (const origin of ['http://front.example', 'https://front.example:8080', 'null']) {
      const near = await app.inject({ url: '/api/categories', headers: { origin } });
      expect(near.headers['access-control-allow-origin'], origin).toBeUndefined();
    }
  });

  it('serves uploaded images with a cross-origin resource policy that lets those pages show them', async () => {
    const key = await app.storage.save('avatar', { bytes: await jpeg(8, 8), extension: 'jpg' });
    const image = await app.inject({ url: uploadPath(app.storage.url(key)), headers: { origin: FRONT } });
    expect(image.statusCode).toBe(200);
    expect(image.headers['cross-origin-resource-policy']).toBe('cross-origin');
    expect(image.headers['access-control-allow-origin']).toBe(FRONT);
    // The API's own answers keep helmet's policy.
    const api = await app.inject('/api/categories');
    expect(api.headers['cross-origin-resource-policy']).toBe('same-origin');
  });

  it('answers upload URLs absolute, from PUBLIC_URL, so a page of another origin loads them', async () => {
    const key = await app.storage.save('avatar', { bytes: await jpeg(8, 8), extension: 'jpg' });
    await app.db.update(users).set({ profileImage: key }).where(eq(users.id, user.id));
    const response = await app.inject({ url: '/api/users', headers: { origin: FRONT, ...bearer(user) } });
    const { data } = response.json() as { data: { profile_image_path: string } };
    expect(data.profile_image_path).toBe(`${API}/uploads/${key}`);
    expect((await app.inject(uploadPath(data.profile_image_path))).statusCode).toBe(200);
  });
});

/** The path of an upload URL, absolute or not (what a request to this server asks for). */
function uploadPath(url: string): string {
  return new URL(url, API).pathname;
}

describe('CORS without CORS_ORIGINS (the default)', () => {
  let app: FastifyInstance;
  beforeAll(async () => {
    app = await buildTestApp();
  });
  afterAll(() => app.close());

  it('answers no preflight and sends no CORS headers, and keeps uploads same-origin', async () => {
    expect((await preflight(app, FRONT)).statusCode).toBe(404);
    const read = await app.inject({ url: '/api/categories', headers: { origin: FRONT } });
    expect(read.headers['access-control-allow-origin']).toBeUndefined();
    const key = await app.storage.save('avatar', { bytes: await jpeg(8, 8), extension: 'jpg' });
    expect(app.storage.url(key)).toBe(`/uploads/${key}`); // the same-origin app's relative paths
    const image = await app.inject(app.storage.url(key));
    expect(image.headers['cross-origin-resource-policy']).toBe('same-origin');
  });
});

describe('originAllowed', () => {
  const options = { publicUrl: 'https://academy.example', corsOrigins: [FRONT] };
  it.each([
    [undefined, 'api.internal:5000', true],
    [FRONT, 'api.internal:5000', true],
    ['https://academy.example', 'api.internal:5000', true],
    ['http://127.0.0.1:5000', '127.0.0.1:5000', true],
    ['http://LOCALHOST:5173', 'localhost:5173', true],
    [OTHER, 'api.internal:5000', false],
    ['http://127.0.0.1:5001', '127.0.0.1:5000', false],
    ['null', '127.0.0.1:5000', false],
    [OTHER, undefined, false],
  ])('origin %j on host %j: %j', (origin, host, expected) => {
    expect(originAllowed(origin, host, options)).toBe(expected);
  });
});
