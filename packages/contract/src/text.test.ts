import { describe, expect, it } from 'vitest';
import { ClassCreateSchema, ClassUpdateSchema, CLASS_MESSAGES } from './classes.ts';
import { ScheduleCreateSchema } from './schedules.ts';
import { hasControlCharacter, optionalText, requiredText, TEXT_MESSAGES } from './text.ts';
import { NicknameQuerySchema, SignupSchema, USER_MESSAGES } from './users.ts';

const FAMILY = '👨‍👩‍👧‍👦';
const JAMO = '\u1100\u1161\u11a8'; // 각 written as three jamo

describe('control characters', () => {
  const controls = [
    '\u0000',
    '\u0001',
    '\u0008',
    '\u000b',
    '\u001b',
    '\u007f',
    '\u0085',
    '\u009f',
    '\ud800',
    '\udfff',
  ];
  it.each(controls)('%j is refused everywhere', (character) => {
    expect(hasControlCharacter(`앞${character}뒤`, true)).toBe(true);
    expect(hasControlCharacter(`앞${character}뒤`, false)).toBe(true);
  });

  it.each(['\t', '\n', '\r', '\u2028', '\u2029'])(
    '%j is a line break only multi-line texts keep',
    (character) => {
      expect(hasControlCharacter(`앞${character}뒤`, true)).toBe(false);
      expect(hasControlCharacter(`앞${character}뒤`, false)).toBe(true);
    },
  );

  it.each(['보통 글', '😀 emoji', FAMILY, '\u00a0', 'é', '\ufffd'])('%j is text', (text) => {
    expect(hasControlCharacter(text, false)).toBe(false);
  });
});

describe('every text schema refuses control characters with a Korean message', () => {
  const schedule = { content: '1강', date: '2026-03-01', start_time: '09:00:00', end_time: '10:00:00' };
  const classDto = { categoryId: 1, name: '타입스크립트', object: '목표', description: '설명' };
  type Case = [
    string,
    (text: string) => { success: boolean; error?: { issues: { path: PropertyKey[]; message: string }[] } },
    string,
  ];
  const cases: Case[] = [
    ['nickname (sign-up)', (t) => SignupSchema.safeParse({ nickname: `파도${t}선생` }), 'nickname'],
    ['nickname (check)', (t) => NicknameQuerySchema.safeParse({ nickname: `파도${t}선생` }), 'nickname'],
    ['class name', (t) => ClassCreateSchema.safeParse({ ...classDto, name: `타입${t}스크립트` }), 'name'],
    ['class goal', (t) => ClassCreateSchema.safeParse({ ...classDto, object: `목${t}표` }), 'object'],
    [
      'class description',
      (t) => ClassCreateSchema.safeParse({ ...classDto, description: `설${t}명` }),
      'description',
    ],
    ['instructor info', (t) => ClassUpdateSchema.safeParse({ instructorInfo: `소${t}개` }), 'instructorInfo'],
    ['prerequisite', (t) => ClassUpdateSchema.safeParse({ prerequisite: `선${t}수` }), 'prerequisite'],
    ['announcement', (t) => ClassUpdateSchema.safeParse({ announcement: `공${t}지` }), 'announcement'],
    [
      'schedule content',
      (t) => ScheduleCreateSchema.safeParse({ ...schedule, content: `1${t}강` }),
      'content',
    ],
  ];

  it.each(cases)('%s', (_name, parse, field) => {
    expect(parse('').success).toBe(true);
    for (const character of ['\u0000', '\u001b', '\ud83d']) {
      const result = parse(character);
      expect(result.success).toBe(false);
      expect(result.error?.issues.find((issue) => issue.path[0] === field)?.message).toBe(
        TEXT_MESSAGES.control,
      );
    }
  });

  it('a blank required text says it is required, not that it is too short', () => {
    const result = ClassCreateSchema.safeParse({ ...classDto, name: '   ' });
    expect(result.error?.issues.map((issue) => issue.message)).toEqual([CLASS_MESSAGES.nameRequired]);
  });
});

describe('lengths are counted in characters', () => {
  it.each([
    ['20 emoji', '😀'.repeat(20), true],
    ['21 emoji', '😀'.repeat(21), false],
    ['20 families', FAMILY.repeat(20), true],
    ['2 jamo syllables', JAMO.repeat(2), true],
    ['1 jamo syllable', JAMO, false],
  ])('a nickname of %s: %s', (_name, nickname, ok) => {
    const result = SignupSchema.safeParse({ nickname });
    expect(result.success).toBe(ok);
    if (!ok) expect(result.error?.issues[0]?.message).toBe(USER_MESSAGES.nicknameLength);
  });

  it('class names, texts and schedule contents too', () => {
    expect(requiredText('필수', { max: 3 }).safeParse('🇰🇷🇯🇵🇺🇸').success).toBe(true);
    expect(requiredText('필수', { max: 3 }).safeParse('🇰🇷🇯🇵🇺🇸🇬🇧').success).toBe(false);
    expect(optionalText({ max: 2 }).safeParse(`${FAMILY}${FAMILY}`).data).toBe(`${FAMILY}${FAMILY}`);
    expect(optionalText({ max: 2 }).safeParse('  ').data).toBeNull();
    const name = ClassCreateSchema.shape.name;
    expect(name.safeParse('🐳'.repeat(24)).success).toBe(true);
    expect(name.safeParse('🐳'.repeat(25)).error?.issues[0]?.message).toBe(CLASS_MESSAGES.nameLength);
    expect(name.safeParse('🐳').error?.issues[0]?.message).toBe(CLASS_MESSAGES.nameLength);
  });
});
