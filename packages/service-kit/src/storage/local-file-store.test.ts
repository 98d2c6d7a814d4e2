import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Readable } from 'node:stream';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from './local-file-store.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-local-store-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const store = new LocalFileStore(dir);

async function text(stream: Readable | undefined): Promise<string> {
  if (stream === undefined) throw new Error('nothing opened');
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks).toString();
}

describe('the local-disk file store', () => {
  it('opens a file whole or by range, and nothing for a missing key or a folder', async () => {
    await store.putBytes('t/a.txt', Buffer.from('0123456789'));
    const whole = await store.open('t/a.txt');
    expect(whole?.size).toBe(10);
    expect(await text(whole?.stream)).toBe('0123456789');
    const part = await store.open('t/a.txt', { start: 3, end: 100 });
    expect(part?.range).toEqual({ start: 3, end: 9 });
    expect(await text(part?.stream)).toBe('3456789');
    expect(await store.open('t/a.txt', { start: 10, end: 20 })).toBeNull();
    expect(await store.open('t/none.txt')).toBeNull();
    await store.putBytes('t/inner/b.txt', Buffer.from('b'));
    expect(await store.open('t/inner')).toBeNull();
  });

  it('serves a file removed while it is opened either whole or not at all (a replaced photo)', async () => {
    const keys = Array.from({ length: 200 }, (_, index) => `photos/${index}.txt`);
    for (const key of keys) await store.putBytes(key, Buffer.from(`photo ${key}`));
    const read = await Promise.all(
      keys.map(async (key) => {
        const [opened] = await Promise.all([store.open(key), store.remove(key)]);
        return opened === null ? null : text(opened.stream);
      }),
    );
    read.forEach((content, index) => expect([null, `photo ${keys[index]}`]).toContain(content));
    for (const key of keys) expect(await store.open(key)).toBeNull();
  });
});
