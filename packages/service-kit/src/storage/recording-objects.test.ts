import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { LocalFileStore } from './local-file-store.ts';
import {
  completeKey,
  downloadRecording,
  encodePatches,
  mirrorRecording,
  partKey,
  patchesKey,
} from './recording-objects.ts';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'sea-recording-objects-'));
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));
const store = new LocalFileStore(path.join(dir, 'store'));

/** The store, counting the bytes it gives out. */
function counted(): { store: LocalFileStore; read: () => number } {
  let read = 0;
  const open: LocalFileStore['open'] = async (key, range) => {
    const opened = await store.open(key, range);
    if (opened) read += opened.range ? opened.range.end - opened.range.start + 1 : opened.size;
    return opened;
  };
  const watched = new Proxy(store, {
    get: (target, name) => {
      if (name === 'open') return open;
      const value: unknown = Reflect.get(target, name, target);
      return typeof value === 'function' ? value.bind(target) : value;
    },
  });
  return { store: watched, read: () => read };
}

describe('a recording mirrored while it is uploaded', () => {
  it('fetches only what was uploaded since, and ends as the whole download', async () => {
    const key = 'room-1';
    const file = 'webcamVideo-0.webm';
    const copy = path.join(dir, 'copy');
    const local = path.join(copy, file);
    await store.putBytes(partKey(key, file, 0), Buffer.from('HEADER0123'));
    await store.putBytes(partKey(key, file, 10), Buffer.from('4567'));
    const first = counted();
    expect(await mirrorRecording(first.store, key, copy, { patches: false })).toEqual({
      complete: false,
      leftOutBytes: 0,
    });
    expect(fs.readFileSync(local, 'utf8')).toBe('HEADER01234567');
    expect(first.read()).toBe(14);

    // The next round: a part uploaded again after the node restarted (overlapping), and a new one.
    await store.putBytes(partKey(key, file, 12), Buffer.from('6789'));
    await store.putBytes(partKey(key, file, 16), Buffer.from('ABC'));
    const second = counted();
    await mirrorRecording(second.store, key, copy, { patches: false });
    expect(fs.readFileSync(local, 'utf8')).toBe('HEADER0123456789ABC');
    expect(second.read()).toBe(5);

    // The end: the header's duration written at the start, and `complete`.
    await store.putBytes(
      patchesKey(key, file),
      encodePatches([{ position: 0, bytes: Buffer.from('header') }]),
    );
    await store.putBytes(completeKey(key), Buffer.from(''));
    expect(await mirrorRecording(store, key, copy, { patches: false })).toMatchObject({ complete: true });
    expect(fs.readFileSync(local, 'utf8')).toBe('HEADER0123456789ABC');
    await mirrorRecording(store, key, copy, { patches: true });
    const whole = path.join(dir, 'whole');
    await downloadRecording(store, key, whole);
    expect(fs.readFileSync(local, 'utf8')).toBe('header0123456789ABC');
    expect(fs.readFileSync(local)).toEqual(fs.readFileSync(path.join(whole, file)));
  });
});
