import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { insertClass } from '../../test/classes.ts';
import { expectError } from '../../test/expect-envelope.ts';
import { bearer, buildTestApp, createUser, type TestUser } from '../../test/helper.ts';
import { HttpError } from '../errors.ts';
import { invalidFieldsOf, toHttpError } from './errors.ts';

describe('toHttpError', () => {
  it('keeps typed errors, maps zod errors to invalid_fields and unknown errors to a 5xx (null)', () => {
    const typed = new HttpError(418, '역할', 'role');
    expect(toHttpError(typed)).toBe(typed);
    const zod = z.object({ name: z.string().min(2, '두 글자 이상') }).safeParse({ name: 'a' }).error;
    expect(toHttpError(zod)?.invalidFields).toEqual({ name: '두 글자 이상' });
    expect(toHttpError(new Error('boom'))).toBeNull();
  });

  it('gives English zod messages a Korean one', () => {
    expect(invalidFieldsOf([{ instancePath: '/page', message: 'Invalid input' }])).toEqual({
      page: '올바른 값을 입력해 주세요.',
    });
  });
});

describe('request body failures', () => {
  let app: FastifyInstance;
  let teacher: TestUser;
  let url: string;
  beforeAll(async () => {
    app = await buildTestApp();
    teacher = await createUser(app);
    url = `/api/classes/${await insertClass(app, teacher.id)}/schedule`;
  });
  afterAll(() => app.close());
  const post = (payload: string, contentType: string) =>
    app.inject({
      method: 'POST',
      url,
      payload,
      headers: { ...bearer(teacher), 'content-type': contentType },
    });

  it('answers 400 to malformed JSON and to prototype-poisoning JSON', async () => {
    expectError(await post('{"content":', 'application/json'), 400);
    expectError(await post('{"__proto__": {"x": 1}}', 'application/json'), 400);
  });

  it('answers 415 to an unsupported content type and 413 to a body over 1 MB', async () => {
    expectError(await post('<content/>', 'application/xml'), 415);
    expect(expectError(await post('content=x', 'text/plain'), 400).invalid_fields).toHaveProperty('body');
    expectError(await post(JSON.stringify({ content: 'x'.repeat(1_100_000) }), 'application/json'), 413);
  });

  it('keeps serving afterwards', async () => {
    const ok = await post(
      JSON.stringify({ content: '정상', date: '2026-01-01', start_time: '09:00:00', end_time: '10:00:00' }),
      'application/json',
    );
    expect(ok.statusCode).toBe(200);
  });
});
