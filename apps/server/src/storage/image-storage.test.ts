import { mkdtemp, readdir, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import Fastify from 'fastify';
import sharp from 'sharp';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { bannerCard } from '../uploads/process-image.ts';
import { ImageStorage } from './image-storage.ts';
import { LocalFileStore } from '@sea/service-kit/storage/local-file-store';
import { serveUploads } from './serve-uploads.ts';
import { cardKey, isStorageKey } from './storage.ts';

let dir: string;
let storage: ImageStorage;

beforeAll(async () => {
  dir = await mkdtemp(path.join(tmpdir(), 'sea-storage-'));
  storage = new ImageStorage(new LocalFileStore(dir));
});
afterAll(() => rm(dir, { recursive: true, force: true }));

describe('ImageStorage on the local folder', () => {
  it('saves under a fresh random key per kind and removes it again', async () => {
    const bytes = Buffer.from('image bytes');
    const first = await storage.save('avatar', { bytes, extension: 'png' });
    const second = await storage.save('avatar', { bytes, extension: 'png' });
    expect(first).not.toBe(second);
    expect(first).toMatch(/^avatars\/[0-9a-f-]{36}\.png$/);
    expect(isStorageKey(first)).toBe(true);
    expect(await readFile(path.join(dir, first))).toEqual(bytes);
    expect(storage.url(first)).toBe(`/uploads/${first}`);

    await storage.remove(first);
    await storage.remove(first); // removing twice is not an error
    expect(await readdir(path.join(dir, 'avatars'))).toEqual([second.slice('avatars/'.length)]);
  });

  it('refuses to remove anything that is not one of its keys', async () => {
    const key = await storage.save('banner', { bytes: Buffer.from('x'), extension: 'jpg' });
    await storage.remove(`../${key}`);
    await storage.remove('banners/../banners/x.jpg');
    expect(await readFile(path.join(dir, key), 'utf8')).toBe('x');
  });
});

describe('banner card copies', () => {
  it('are stored beside their banner, removed with it, and served', async () => {
    const key = await storage.save('banner', {
      bytes: Buffer.from('big'),
      extension: 'jpg',
      card: Buffer.from('small'),
    });
    const card = cardKey(key) ?? '';
    expect(card).toBe(key.replace(/\.jpg$/, '.card.jpg'));
    expect(await readFile(path.join(dir, card), 'utf8')).toBe('small');
    const app = Fastify();
    await app.register(serveUploads, { files: storage.files });
    expect((await app.inject(`/uploads/${card}`)).body).toBe('small');
    expect((await app.inject(`/uploads/${card.replace('.card.', '.card.card.')}`)).statusCode).toBe(404);
    await storage.remove(key);
    expect(
      (await readdir(path.join(dir, 'banners'))).filter((name) => name.includes(key.slice(8, 44))),
    ).toEqual([]);
    await app.close();
  });

  it('are made at start for banners stored without one; unreadable files are skipped', async () => {
    const own = await mkdtemp(path.join(tmpdir(), 'sea-storage-cards-'));
    try {
      const older = new ImageStorage(new LocalFileStore(own));
      const banner = await sharp({ create: { width: 1184, height: 400, channels: 3, background: '#1d6fd6' } })
        .jpeg()
        .toBuffer();
      const key = await older.save('banner', { bytes: banner, extension: 'jpg' });
      const broken = await older.save('banner', { bytes: Buffer.from('not an image'), extension: 'jpg' });
      expect(await older.addMissingCards(bannerCard)).toBe(1);
      expect((await sharp(path.join(own, cardKey(key) ?? '')).metadata()).width).toBe(480);
      expect(cardKey(broken)).not.toBeNull();
      expect(await older.addMissingCards(bannerCard)).toBe(0);
    } finally {
      await rm(own, { recursive: true, force: true });
    }
  });
});

describe('serveUploads', () => {
  it('serves stored files with immutable cache headers and 404s anything else', async () => {
    const app = Fastify();
    await app.register(serveUploads, { files: storage.files });
    const key = await storage.save('banner', { bytes: Buffer.from('jpeg bytes'), extension: 'jpg' });

    const found = await app.inject(storage.url(key));
    expect(found.statusCode).toBe(200);
    expect(found.body).toBe('jpeg bytes');
    expect(found.headers['content-type']).toBe('image/jpeg');
    expect(found.headers['cache-control']).toBe('public, max-age=31536000, immutable');

    for (const url of [
      '/uploads/banners/',
      '/uploads/../package.json',
      '/uploads/banners/nope.jpg',
      '/uploads/x',
    ]) {
      expect((await app.inject(url)).statusCode, url).toBe(404);
    }
    await storage.remove(key);
    expect((await app.inject(storage.url(key))).statusCode).toBe(404);
    await app.close();
  });
});
