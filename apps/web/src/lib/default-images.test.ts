import { describe, expect, it } from 'vitest';
import {
  avatarFor,
  bannerFor,
  chatAvatarFor,
  DEFAULT_AVATARS,
  DEFAULT_BANNERS,
  DEFAULT_CHAT_AVATARS,
  INSTRUCTOR_IMAGES,
  instructorImageFor,
} from './default-images.ts';
import { hashIndex, stringHash } from './string-hash.ts';

describe('stringHash', () => {
  it.each([
    ['', 0],
    ['a', 97],
    ['ab', 97 * 31 + 98],
    // Java's String.hashCode of 'hello' (the same recurrence).
    ['hello', 99162322],
    // Long strings overflow 32 bits and wrap (value computed independently with 32-bit arithmetic).
    ['the quick brown fox jumps over the lazy dog', -2082818701],
  ])('hashes %j to %i', (text, expected) => {
    expect(stringHash(text)).toBe(expected);
  });

  it('uses UTF-16 code units (Korean and emoji)', () => {
    expect(stringHash('고래')).toBe((0xace0 * 31 + 0xb798) | 0);
    expect(stringHash('🐳')).toBe((0xd83d * 31 + 0xdc33) | 0);
  });

  it('gives an index |h % n| that is never negative', () => {
    for (const name of ['', '고래', 'the quick brown fox jumps over the lazy dog', '거북이 선생님']) {
      const index = hashIndex(name, 5);
      expect(index).toBe(Math.abs(stringHash(name) % 5));
      expect(index).toBeGreaterThanOrEqual(0);
      expect(index).toBeLessThan(5);
    }
  });
});

describe('default images', () => {
  it('has 10 banners, 5 avatars, 3 chat avatars and 3 instructor pictures', () => {
    expect(new Set(DEFAULT_BANNERS).size).toBe(10);
    expect(new Set(DEFAULT_AVATARS).size).toBe(5);
    expect(new Set(DEFAULT_CHAT_AVATARS).size).toBe(3);
    expect(new Set(INSTRUCTOR_IMAGES).size).toBe(3);
  });

  it('picks the banner by classId % 10 and keeps a real banner', () => {
    expect(bannerFor(7)).toBe(DEFAULT_BANNERS[7]);
    expect(bannerFor(23)).toBe(DEFAULT_BANNERS[3]);
    expect(bannerFor(40, null)).toBe(DEFAULT_BANNERS[0]);
    expect(bannerFor(5, '/uploads/b.png')).toBe('/uploads/b.png');
  });

  it('picks avatars by the name hash and keeps a real picture', () => {
    // 'the quick brown fox jumps over the lazy dog' hashes to -2082818701: |h % 5| = 1, |h % 3| = 1.
    const name = 'the quick brown fox jumps over the lazy dog';
    expect(avatarFor(name)).toBe(DEFAULT_AVATARS[1]);
    expect(chatAvatarFor(name)).toBe(DEFAULT_CHAT_AVATARS[1]);
    expect(instructorImageFor(name)).toBe(INSTRUCTOR_IMAGES[1]);
    // 'hello' → 99162322: % 5 = 2, % 3 = 1.
    expect(avatarFor('hello')).toBe(DEFAULT_AVATARS[2]);
    expect(avatarFor('hello', '/uploads/me.png')).toBe('/uploads/me.png');
    expect(chatAvatarFor('hello', '/uploads/me.png')).toBe('/uploads/me.png');
  });
});
