import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import zlib from 'node:zlib';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { INITIAL_ANSWERS_ID } from '@sea/contract/initial-answers';
import { buildTestApp, createUser } from '../../test/helper.ts';
import { insertClass } from '../../test/classes.ts';
import { pageEncoding } from './web-app.ts';

const INDEX =
  '<!doctype html><html lang="ko"><head><title>바다학원</title></head>' +
  '<body><div id="root"></div><script type="module" src="/assets/index-1.js"></script></body></html>';
const SCRIPT = `console.log(${JSON.stringify('바다'.repeat(1000))})`;

describe('the built web app with embedded first answers', () => {
  let app: FastifyInstance;
  const webDist = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-web-'));
  let liveId = 0;
  beforeAll(async () => {
    fs.mkdirSync(path.join(webDist, 'assets'));
    fs.writeFileSync(path.join(webDist, 'index.html'), INDEX);
    fs.writeFileSync(path.join(webDist, 'assets', 'index-1.js'), SCRIPT);
    // What the build's precompress plugin writes beside a file.
    fs.writeFileSync(path.join(webDist, 'assets', 'index-1.js.br'), zlib.brotliCompressSync(SCRIPT));
    fs.writeFileSync(path.join(webDist, 'assets', 'index-1.js.gz'), zlib.gzipSync(SCRIPT));
    app = await buildTestApp({ webDist });
    const teacher = await createUser(app);
    liveId = await insertClass(app, teacher.id, { name: '라이브 수업', isActive: true });
    await insertClass(app, teacher.id, { name: '녹화 수업' });
  });
  afterAll(async () => {
    await app.close();
    fs.rmSync(webDist, { recursive: true, force: true });
  });

  function answers(html: string): Record<string, { data: { id: number; name: string }[] }> {
    const start = html.indexOf(`id="${INITIAL_ANSWERS_ID}">`) + `id="${INITIAL_ANSWERS_ID}">`.length;
    return (JSON.parse(html.slice(start, html.indexOf('</script>', start))) as { answers: never }).answers;
  }

  it('home carries the current live and top-ten lists, as the API answers them', async () => {
    const response = await app.inject({ url: '/' });
    expect(response.statusCode).toBe(200);
    expect(response.headers['cache-control']).toBe('no-cache');
    const embedded = answers(response.body);
    expect(embedded['/api/classes?page=0&target=live']?.data.map((item) => item.id)).toEqual([liveId]);
    expect(embedded['/api/classes?page=0&target=topten']?.data).toHaveLength(2);
    const api = await app.inject({ url: '/api/classes?target=live&page=0' });
    expect(embedded['/api/classes?page=0&target=live']?.data).toEqual(api.json().data);
  });

  it('is compressed for clients that accept it, and says it varies by Accept-Encoding', async () => {
    const br = await app.inject({ url: '/list', headers: { 'accept-encoding': 'gzip, deflate, br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(br.headers.vary).toContain('accept-encoding');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toContain('녹화 수업');
    const gzip = await app.inject({ url: '/list', headers: { 'accept-encoding': 'gzip, br;q=0' } });
    expect(gzip.headers['content-encoding']).toBe('gzip');
    expect(zlib.gunzipSync(gzip.rawPayload).toString()).toContain(INITIAL_ANSWERS_ID);
    const plain = await app.inject({ url: '/lecture/info/1', headers: { 'accept-encoding': 'identity' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(INDEX);
  });

  it('serves the precompressed copy of an asset', async () => {
    const br = await app.inject({ url: '/assets/index-1.js', headers: { 'accept-encoding': 'br' } });
    expect(br.headers['content-encoding']).toBe('br');
    expect(zlib.brotliDecompressSync(br.rawPayload).toString()).toBe(SCRIPT);
    const plain = await app.inject({ url: '/assets/index-1.js' });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(plain.body).toBe(SCRIPT);
  });
});

describe('pageEncoding', () => {
  it.each([
    [undefined, null],
    ['', null],
    ['identity', null],
    ['gzip', 'gzip'],
    ['gzip, deflate, br, zstd', 'br'],
    ['BR;q=0.5, gzip', 'br'],
    ['br;q=0, gzip', 'gzip'],
    ['br;q=0.0, gzip;q=0', null],
    ['brotli, xgzip', null],
  ])('%j → %s', (header, expected) => {
    expect(pageEncoding(header)).toBe(expected);
  });
});
