import multipartPlugin from '@fastify/multipart';
import Fastify from 'fastify';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { z } from 'zod';
import { MAX_UPLOAD_BYTES } from '@sea/contract/uploads';
import { toHttpError } from '../plugins/errors.ts';
import { jpeg, pixelFloodPng, png } from '../../test/images.ts';
import { imagePart, jsonPart, multipart } from '../../test/multipart.ts';
import { readImageForm } from './read-image-form.ts';

// A minimal app around the reader, so it is tested apart from any route (errors mapped as the error plugin
// maps them; the plugin itself is exercised by the route tests).
let app: FastifyInstance;

beforeAll(async () => {
  app = Fastify();
  await app.register(multipartPlugin);
  app.setErrorHandler((error, _request, reply) => {
    const httpError = toHttpError(error);
    if (httpError !== null) {
      return reply.status(httpError.status).send({
        status: httpError.status,
        message_kor: httpError.messageKor,
        invalid_fields: httpError.invalidFields,
      });
    }
    return reply.status(500).send({ status: 500 });
  });
  const schema = z.object({ nickname: z.string().min(2, '두 글자 이상') });
  app.post('/form', async (request) => {
    const form = await readImageForm(request, { jsonPart: 'dto', kind: 'banner', schema });
    return {
      json: form.json,
      image: form.image && { width: form.image.width, type: form.image.contentType },
    };
  });
  await app.ready();
});

afterAll(() => app.close());

function post(parts: Parameters<typeof multipart>[0]) {
  return app.inject({ method: 'POST', url: '/form', ...multipart(parts) });
}

describe('readImageForm', () => {
  it('reads a JSON Blob part and an image', async () => {
    const response = await post([jsonPart('dto', { nickname: '바다' }), imagePart(await jpeg(2000, 1000))]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({
      json: { nickname: '바다' },
      image: { width: 1184, type: 'image/jpeg' },
    });
  });

  it('reads the JSON part as a plain field or a field declared application/json, image first', async () => {
    const image = imagePart(await png(10, 10), 'a.png', 'image/png');
    const plain = await post([image, { name: 'dto', value: '{"nickname":"파도"}' }]);
    expect(plain.json()).toMatchObject({ json: { nickname: '파도' }, image: { width: 10 } });
    const declared = await post([
      { name: 'dto', value: '{"nickname":"파도"}', contentType: 'application/json' },
    ]);
    expect(declared.json()).toEqual({ json: { nickname: '파도' } });
  });

  it('treats an empty file part as no image and ignores unknown parts', async () => {
    const response = await post([
      { name: 'other', value: 'x'.repeat(1000), filename: 'x.bin', contentType: 'application/octet-stream' },
      jsonPart('dto', { nickname: '바다' }),
      { name: 'note', value: 'ignored' },
      { name: 'imagefile', value: Buffer.alloc(0), filename: '', contentType: 'application/octet-stream' },
    ]);
    expect(response.statusCode).toBe(200);
    expect(response.json()).toEqual({ json: { nickname: '바다' } });
  });

  it.each([
    ['a missing JSON part', [{ name: 'nickname', value: '바다' }], 400],
    [
      'malformed JSON in a Blob part',
      [{ name: 'dto', value: '{nickname:', filename: 'blob', contentType: 'application/json' }],
      400,
    ],
    ['malformed JSON in a plain field', [{ name: 'dto', value: '{"nickname": "바' }], 400],
    [
      'malformed JSON in a field declared application/json',
      [{ name: 'dto', value: '{', contentType: 'application/json' }],
      400,
    ],
    ['two JSON parts', [jsonPart('dto', { nickname: '바다' }), jsonPart('dto', { nickname: '파도' })], 400],
    [
      'too many file parts',
      Array.from({ length: 5 }, (_, i) => ({ name: `f${i}`, value: 'x', filename: 'x.bin' })),
      400,
    ],
    ['a JSON part over 64 KiB', [jsonPart('dto', { nickname: 'x'.repeat(70_000) })], 413],
  ])('answers %s with %i', async (_name, parts, status) => {
    const response = await post(parts);
    expect(response.statusCode).toBe(status);
    expect(response.json().message_kor).toMatch(/[가-힣]/);
  });

  it('validates the JSON with the schema before looking at the image', async () => {
    const response = await post([jsonPart('dto', { nickname: 'x' }), imagePart(Buffer.from('not an image'))]);
    expect(response.statusCode).toBe(400);
    expect(response.json().invalid_fields).toEqual({ nickname: '두 글자 이상' });
  });

  it('answers 400 to a body that is not multipart', async () => {
    const response = await app.inject({ method: 'POST', url: '/form', payload: { nickname: '바다' } });
    expect(response.statusCode).toBe(400);
  });

  it('answers 400 to a multipart content type without a boundary, or garbage after one', async () => {
    const noBoundary = await app.inject({
      method: 'POST',
      url: '/form',
      headers: { 'content-type': 'multipart/form-data' },
      payload: 'whatever',
    });
    expect(noBoundary.statusCode).toBe(400);
    const garbage = await app.inject({
      method: 'POST',
      url: '/form',
      headers: { 'content-type': 'multipart/form-data; boundary=xyz' },
      payload: Buffer.from([0, 1, 2, 3, 255, 254]),
    });
    expect(garbage.statusCode).toBe(400);
  });

  it('answers 400 to a truncated multipart body', async () => {
    const { payload, headers } = multipart([
      jsonPart('dto', { nickname: '바다' }),
      imagePart(await jpeg(50, 50)),
    ]);
    const response = await app.inject({
      method: 'POST',
      url: '/form',
      headers,
      payload: payload.subarray(0, 300),
    });
    expect(response.statusCode).toBe(400);
  });

  it('answers 415 to a PNG renamed .jpg whose content is text', async () => {
    const response = await post([
      jsonPart('dto', { nickname: '바다' }),
      imagePart(Buffer.from('GIF89a hello'), 'cat.jpg'),
    ]);
    expect(response.statusCode).toBe(415);
  });

  it('answers 413 to a 6 MB file, and keeps serving', async () => {
    const big = Buffer.concat([await jpeg(10, 10), Buffer.alloc(6 * 1024 * 1024)]);
    const response = await post([jsonPart('dto', { nickname: '바다' }), imagePart(big)]);
    expect(response.statusCode).toBe(413);
    expect(big.length).toBeGreaterThan(MAX_UPLOAD_BYTES);
    const after = await post([jsonPart('dto', { nickname: '바다' })]);
    expect(after.statusCode).toBe(200);
  });

  it('answers 413 to a pixel flood', async () => {
    const response = await post([
      jsonPart('dto', { nickname: '바다' }),
      imagePart(await pixelFloodPng(), 'x.png'),
    ]);
    expect(response.statusCode).toBe(413);
  });

  it('answers 400 to two image parts', async () => {
    const image = imagePart(await jpeg(10, 10));
    const response = await post([jsonPart('dto', { nickname: '바다' }), image, image]);
    expect(response.statusCode).toBe(400);
  });
});
