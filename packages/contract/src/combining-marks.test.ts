import { describe, expect, it } from 'vitest';
import { mostMarksPerCharacter } from './combining-marks.ts';
import { NICKNAME_MARKS_MAX, SignupSchema, USER_MESSAGES } from './users.ts';

const zalgo = (text: string, marks: number) =>
  [...text].map((letter) => letter + '\u0301\u0316\u0334\u0347\u035b'.repeat(4).slice(0, marks)).join('');

describe('combining marks per character', () => {
  it('counts the marks of the most marked character', () => {
    expect(mostMarksPerCharacter('admin')).toBe(0);
    expect(mostMarksPerCharacter('바다학원')).toBe(0);
    expect(mostMarksPerCharacter('바다학원'.normalize('NFD'))).toBe(0); // conjoining jamo are letters
    expect(mostMarksPerCharacter('Việt Nam'.normalize('NFD'))).toBe(2);
    expect(mostMarksPerCharacter(zalgo('admin', 12))).toBe(12);
  });

  it('lets a nickname carry at most two marks per character, saying why in Korean (Zalgo was taken)', () => {
    for (const name of ['바다학원', 'Nguyễn Việt'.normalize('NFD'), 'admiń', '한글ㄱㄴ']) {
      expect(SignupSchema.safeParse({ nickname: name }).success, name).toBe(true);
    }
    for (const name of [zalgo('admin', 3), zalgo('바다', 10), `a${'\u0301'.repeat(30)}b`]) {
      const parsed = SignupSchema.safeParse({ nickname: name });
      expect(parsed.success, name).toBe(false);
      expect(parsed.error?.issues[0]?.message).toBe(USER_MESSAGES.nicknameMarks);
    }
    expect(USER_MESSAGES.nicknameMarks).toContain(`${NICKNAME_MARKS_MAX}개`);
  });
});
