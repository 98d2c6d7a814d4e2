import type { HttpError } from '../errors.ts';
import { conflict } from '../errors.ts';
import { uniqueViolation } from './unique-violation.ts';

export function alreadyRegistered(): HttpError {
  return conflict('이미 가입된 사용자예요.', 'This account is already registered.');
}

export function nicknameTaken(): HttpError {
  return conflict('이미 사용 중인 닉네임이에요.', 'The nickname is already taken.');
}

/** A nickname whose skeleton is taken by another one ('аdmin' with a Cyrillic а beside 'admin'). */
export function nicknameLookAlike(): HttpError {
  return conflict(
    '이미 있는 닉네임과 똑같아 보여서 쓸 수 없어요. 다른 닉네임을 골라 주세요.',
    'The nickname looks the same as one already taken.',
  );
}

/** The unique index's refusal, which does not say which of the two it was. */
function nicknameTakenOrLookAlike(): HttpError {
  return conflict(
    '이미 사용 중인 닉네임이거나 그것과 똑같아 보이는 닉네임이에요. 다른 닉네임을 골라 주세요.',
    'The nickname, or one that looks the same, is already taken.',
  );
}

export function emailTaken(): HttpError {
  return conflict('이미 사용 중인 이메일이에요.', 'The e-mail address is already taken.');
}

/** Turns a unique violation on `users` into its 409; any other error is returned as it is. */
export function userConflict(error: unknown): unknown {
  switch (uniqueViolation(error)) {
    case null:
      return error;
    case 'users_nickname_key':
      return nicknameTakenOrLookAlike();
    case 'users_email_key':
      return emailTaken();
    default:
      // The primary key: the same account signed up twice at once.
      return alreadyRegistered();
  }
}
