import { describe, expect, it } from 'vitest';
import { ReadCache } from './read-cache.ts';

describe('ReadCache', () => {
  it('answers a stored body until it expires', () => {
    const cache = new ReadCache(1000);
    cache.set('/a', Buffer.from('A'), cache.generation, 0);
    expect(cache.get('/a', 999)?.toString()).toBe('A');
    expect(cache.get('/a', 1000)).toBeUndefined();
  });

  it('forgets everything on a write, and never stores a read that raced a write', () => {
    const cache = new ReadCache(1000);
    const before = cache.generation;
    cache.set('/a', Buffer.from('A'), before, 0);
    cache.invalidate();
    expect(cache.get('/a', 1)).toBeUndefined();
    cache.set('/a', Buffer.from('stale'), before, 1);
    expect(cache.get('/a', 2)).toBeUndefined();
  });

  it('stays bounded and is off with a zero TTL', () => {
    const cache = new ReadCache(1000, 3);
    for (let i = 0; i < 10; i += 1) cache.set(`/${i}`, Buffer.from('x'), cache.generation, 0);
    expect(['/7', '/8', '/9'].map((key) => cache.get(key, 1)?.toString())).toEqual(['x', 'x', 'x']);
    expect(cache.get('/0', 1)).toBeUndefined();
    const off = new ReadCache(0);
    off.set('/a', Buffer.from('A'), off.generation, 0);
    expect(off.get('/a', 0)).toBeUndefined();
  });
});
