import type { AddressInfo } from 'node:net';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bearer, buildTestApp, createAccount, createUser } from './helper.ts';
import { jpeg, pixelFloodPng } from './images.ts';
import { storedFiles } from './uploads-dir.ts';

// Over a real socket (not inject): a refused upload still gets its answer, and the server goes on serving.
let app: FastifyInstance;
let base: string;
beforeAll(async () => {
  app = await buildTestApp();
  await app.listen({ port: 0, host: '127.0.0.1' });
  base = `http://127.0.0.1:${(app.server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  // A client may still be sending a body the server answered early (409 before reading the form); such a
  // connection is busy when close() runs and would otherwise wait for the keep-alive timeout.
  const closing = app.close();
  app.server.closeAllConnections();
  await closing;
});

function form(nickname: string, image?: { bytes: Buffer; name: string; type: string }): FormData {
  const body = new FormData();
  body.append('signupRequestDto', new Blob([JSON.stringify({ nickname })], { type: 'application/json' }));
  if (image)
    body.append('imagefile', new Blob([new Uint8Array(image.bytes)], { type: image.type }), image.name);
  return body;
}

describe('uploads over HTTP', () => {
  it('answers 413 to a 6 MB upload and 413 to a pixel flood, then signs up normally', async () => {
    const account = await createAccount(app);
    const headers = bearer(account);
    const big = Buffer.concat([await jpeg(16, 16), Buffer.alloc(6 * 1024 * 1024, 7)]);
    const tooBig = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers,
      body: form('큰사진', { bytes: big, name: 'big.jpg', type: 'image/jpeg' }),
    });
    expect(tooBig.status).toBe(413);
    expect(((await tooBig.json()) as { error: string }).error).toBe('Payload Too Large');

    const flood = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers,
      body: form('폭탄', { bytes: await pixelFloodPng(), name: 'x.png', type: 'image/png' }),
    });
    expect(flood.status).toBe(413);
    expect(await storedFiles(app)).toEqual([]);

    const fine = await fetch(`${base}/api/auth/signup`, {
      method: 'POST',
      headers,
      body: form('정상가입', { bytes: await jpeg(500, 500), name: 'me.jpg', type: 'image/jpeg' }),
    });
    expect(fine.status).toBe(200);
    const { data } = (await fine.json()) as { data: { profile_image_path: string } };
    const image = await fetch(`${base}${data.profile_image_path}`);
    expect(image.status).toBe(200);
    expect(image.headers.get('content-type')).toBe('image/jpeg');
    expect((await storedFiles(app)).length).toBe(1);
  });

  it('answers 409 to a registered user re-sending a large upload, readable by the client', async () => {
    const user = await createUser(app);
    const large = Buffer.concat([await jpeg(16, 16), Buffer.alloc(4 * 1024 * 1024, 3)]);
    for (let attempt = 0; attempt < 3; attempt += 1) {
      const response = await fetch(`${base}/api/auth/signup`, {
        method: 'POST',
        headers: bearer(user),
        body: form('다시가입', { bytes: large, name: 'big.jpg', type: 'image/jpeg' }),
      });
      expect(response.status).toBe(409);
      expect(((await response.json()) as { message_kor: string }).message_kor).toContain('이미 가입');
    }
  });
});
