import { describe, expect, it } from 'vitest';
import { AnswerCache, envelopeTag, matchesEtag } from './answer-cache.ts';

const answer = (text: string) => ({ body: Buffer.from(text), etag: envelopeTag(text) });

describe('AnswerCache', () => {
  it('answers a stored body until it expires', () => {
    const cache = new AnswerCache(1000);
    cache.set('/a', answer('A'), cache.generation, 0);
    expect(cache.get('/a', 999)?.body.toString()).toBe('A');
    expect(cache.get('/a', 1000)).toBeUndefined();
  });

  it('forgets everything on a write, and never stores a read that raced a write', () => {
    const cache = new AnswerCache(1000);
    const before = cache.generation;
    cache.set('/a', answer('A'), before, 0);
    cache.invalidate();
    expect(cache.get('/a', 1)).toBeUndefined();
    cache.set('/a', answer('stale'), before, 1);
    expect(cache.get('/a', 2)).toBeUndefined();
  });

  it('stays bounded and is off with a zero TTL', () => {
    const cache = new AnswerCache(1000, 3);
    for (let i = 0; i < 10; i += 1) cache.set(`/${i}`, answer('x'), cache.generation, 0);
    expect(['/7', '/8', '/9'].map((key) => cache.get(key, 1)?.body.toString())).toEqual(['x', 'x', 'x']);
    expect(cache.get('/0', 1)).toBeUndefined();
    const off = new AnswerCache(0);
    off.set('/a', answer('A'), off.generation, 0);
    expect(off.get('/a', 0)).toBeUndefined();
  });
});

describe('envelope tags', () => {
  const envelope = (data: unknown, timestamp: number) =>
    JSON.stringify({ status: 200, message_kor: '강의 정보예요.', message_eng: 'Class.', data, timestamp });

  it('are weak and ignore only the trailing timestamp of an envelope', () => {
    const tag = envelopeTag(envelope({ id: 1 }, 1000));
    expect(tag).toMatch(/^W\/"[\w-]+"$/);
    expect(envelopeTag(envelope({ id: 1 }, 2000))).toBe(tag);
    expect(envelopeTag(envelope({ id: 2 }, 1000))).not.toBe(tag);
    expect(envelopeTag(envelope({ timestamp: 1 }, 1000))).not.toBe(
      envelopeTag(envelope({ timestamp: 2 }, 1000)),
    );
  });

  it.each([
    [undefined, false],
    ['W/"abc"', true],
    ['"abc"', true],
    ['"x", W/"abc"', true],
    ['*', true],
    ['"abcd"', false],
    ['', false],
  ])('If-None-Match %j matches W/"abc": %s', (header, expected) => {
    expect(matchesEtag(header, 'W/"abc"')).toBe(expected);
  });
});
