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
  // Worked through from the formula (h = c + ((h << 5) - h), only the shift in 32-bit arithmetic), one
  // code unit at a time, with BigInt and an explicit ToInt32 of h before the shift, not with this code.
  // '홍길동선생': c = 54861 → 54861; c = 44600, h << 5 = 1755552 → 1745291; c = 46041, h << 5 = 55849312 →
  // 54150062; c = 49440, h << 5 = 1732801984 → 1678701362; c = 49373, h << 5 = -2116131264 → -3794783253.
  it.each([
    ['', 0],
    ['a', 97],
    ['ab', 97 * 31 + 98],
    // Java's String.hashCode of 'hello' (the same recurrence, short enough not to leave 32 bits).
    ['hello', 99162322],
    ['고래', 0xace0 * 31 + 0xb798],
    ['🐳', 0xd83d * 31 + 0xdc33],
    // Long names leave 32 bits: h is not wrapped, only the shift is.
    ['홍길동선생', -3794783253],
    ['최파도 선생님', -2492837585],
    ['해파리와 고래의 바다 수업', 2735471625],
    ['Sea Academy teacher', 4380513437],
    ['the quick brown fox jumps over the lazy dog', 6507115891],
  ])('hashes %j to %i', (text, expected) => {
    expect(stringHash(text)).toBe(expected);
  });

  // |h % N| for the two list sizes in use (3 chat/student/instructor pictures, 5 sea creatures). The long names
  // are chosen so that wrapping h to 32 bits after every step would give a different index.
  it.each([
    ['홍길동선생', 0, 3],
    ['최파도 선생님', 2, 0],
    ['해파리와 고래의 바다 수업', 0, 0],
    ['Sea Academy teacher', 2, 2],
    ['the quick brown fox jumps over the lazy dog', 1, 1],
    ['hello', 1, 2],
    ['고래', 2, 1],
  ])('picks index %j → %i of 3 and %i of 5', (text, ofThree, ofFive) => {
    expect(hashIndex(text, 3)).toBe(ofThree);
    expect(hashIndex(text, 5)).toBe(ofFive);
  });

  it('gives an index |h % n| that is never negative', () => {
    for (const name of ['', '고래', '홍길동선생', '최파도 선생님', '거북이 선생님']) {
      for (const count of [3, 5]) {
        const index = hashIndex(name, count);
        expect(index).toBe(Math.abs(stringHash(name) % count));
        expect(index).toBeGreaterThanOrEqual(0);
        expect(index).toBeLessThan(count);
      }
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
    // '최파도 선생님' hashes to -2492837585: |h % 5| = 0, |h % 3| = 2 (wrapped to 32 bits it would be 1 and 2).
    const name = '최파도 선생님';
    expect(avatarFor(name)).toBe(DEFAULT_AVATARS[0]);
    expect(chatAvatarFor(name)).toBe(DEFAULT_CHAT_AVATARS[2]);
    // '홍길동선생' hashes to -3794783253: |h % 3| = 0 (wrapped to 32 bits: 500184043, index 1).
    expect(instructorImageFor('홍길동선생')).toBe(INSTRUCTOR_IMAGES[0]);
    expect(chatAvatarFor('홍길동선생')).toBe(DEFAULT_CHAT_AVATARS[0]);
    // 'hello' → 99162322: % 5 = 2, % 3 = 1.
    expect(avatarFor('hello')).toBe(DEFAULT_AVATARS[2]);
    expect(avatarFor('hello', '/uploads/me.png')).toBe('/uploads/me.png');
    expect(chatAvatarFor('hello', '/uploads/me.png')).toBe('/uploads/me.png');
  });
});
