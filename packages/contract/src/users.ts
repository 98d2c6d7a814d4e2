import { z } from 'zod';
import { mostMarksPerCharacter } from './combining-marks.ts';
import { hasInvisibleCharacter } from './invisible-characters.ts';
import { optionalText, requiredText } from './text.ts';

export const NICKNAME_MIN = 2;
export const NICKNAME_MAX = 20;
/** The most combining marks one character of a nickname may carry (Vietnamese needs two; 'Zalgo' stacks many). */
export const NICKNAME_MARKS_MAX = 2;
export const EMAIL_MAX = 254;
/** Longest instructor introduction, in characters. */
export const INTRODUCTION_MAX = 500;

/** Validation messages of the profile forms, shared by the forms and the server. */
export const USER_MESSAGES = {
  nicknameRequired: '닉네임을 입력해 주세요.',
  nicknameLength: `닉네임은 ${NICKNAME_MIN}자 이상 ${NICKNAME_MAX}자 이하로 입력해 주세요.`,
  nicknameInvisible: '닉네임에는 보이지 않는 문자를 쓸 수 없어요.',
  nicknameMarks: `닉네임의 한 글자에는 결합 부호를 ${NICKNAME_MARKS_MAX}개까지만 붙일 수 있어요.`,
  emailInvalid: '올바른 이메일 주소를 입력해 주세요.',
  photoRemovedWithFile: '사진을 지우면서 새 사진을 올릴 수는 없어요. 둘 중 하나만 해 주세요.',
} as const;

/**
 * A nickname: one line of visible text (no zero-width characters, fillers or bidi controls), 2 to 20
 * characters, in Unicode NFC (a Hangul syllable has two encodings), at most NICKNAME_MARKS_MAX combining marks
 * on any one character (no 'Zalgo'). The database keeps nicknames unique by
 * what they look like (invisible characters removed, spaces folded, then the UTS #39 skeleton), so a look-alike
 * of a taken name ('аdmin' with a Cyrillic а) is a 409.
 */
const nickname = requiredText(USER_MESSAGES.nicknameRequired, {
  min: NICKNAME_MIN,
  max: NICKNAME_MAX,
  lengthMessage: USER_MESSAGES.nicknameLength,
  multiline: false,
})
  .refine((text) => !hasInvisibleCharacter(text), USER_MESSAGES.nicknameInvisible)
  .transform((text) => text.normalize('NFC'))
  .refine((text) => mostMarksPerCharacter(text) <= NICKNAME_MARKS_MAX, USER_MESSAGES.nicknameMarks);

/** What existing clients show, and send back, for a user without an e-mail: read as none. */
export const NO_EMAIL_PLACEHOLDER = '이메일 정보 없음';

/** An optional e-mail: blank, null or the placeholder becomes null. */
const email = z
  .union([
    z.literal(''),
    z.literal(NO_EMAIL_PLACEHOLDER),
    z.email({ error: USER_MESSAGES.emailInvalid }).max(EMAIL_MAX, USER_MESSAGES.emailInvalid),
  ])
  .nullable()
  .transform((value) =>
    value === '' || value === null || value === NO_EMAIL_PLACEHOLDER ? null : value.toLowerCase(),
  );

/** The `signupRequestDto` part of `POST /api/auth/signup`. */
/**
 * Query of `GET /api/auth/signup`: with `answer=status` it answers 200 with {@link SignupStatusSchema} either
 * way (the web app's check, which a browser would log as a failed request on a 404); without, 200 or 404 as
 * existing clients expect.
 */
export const SignupQuerySchema = z.object({ answer: z.enum(['status']).optional() });
/** `data` of `GET /api/auth/signup?answer=status`: whether the caller's account has signed up. */
export const SignupStatusSchema = z.object({ registered: z.boolean() });
export type SignupStatus = z.infer<typeof SignupStatusSchema>;

export const SignupSchema = z.object({ nickname, email: email.optional().transform((v) => v ?? null) });
export type Signup = z.input<typeof SignupSchema>;

/**
 * The `userUpdateDTO` part of `PATCH /api/users`: an absent field is kept, `email: null` clears it,
 * `profileImage: null` removes the saved photo (the default avatar shows again; not with an `imagefile`), and a
 * blank or null `introduction` (shown on the instructor page) clears it.
 */
export const UserUpdateSchema = z.object({
  nickname: nickname.optional(),
  email: email.optional(),
  introduction: optionalText({ max: INTRODUCTION_MAX }).optional(),
  profileImage: z.null().optional(),
});
export type UserUpdate = z.input<typeof UserUpdateSchema>;

/** The signed-in user as `GET /api/users` answers. */
export const UserSchema = z.object({
  id: z.string(),
  nickname: z.string(),
  email: z.string().nullable(),
  profile_image_path: z.string().nullable(),
  introduction: z.string().nullable(),
});
export type User = z.infer<typeof UserSchema>;

/** Query of `GET /api/users/checkNickname`. */
export const NicknameQuerySchema = z.object({ nickname });
