import { describe, expect, it } from 'vitest';
import { HttpError } from '../../lib/http-error.ts';
import { NotMemberError, roomFailure } from './room-failure.ts';
import { LiveRequestError } from './signalling-client.ts';

const http = (status: number) => new HttpError({ status });
const media = (code: ConstructorParameters<typeof LiveRequestError>[0]) => new LiveRequestError(code, '거절');

describe('roomFailure (product-spec section 8, live state)', () => {
  it.each([
    [http(401), 'teacher', 'loginAgain', '/login'],
    [http(401), 'student', 'loginAgain', '/login'],
    [http(404), 'teacher', 'classNotFound', '/mypage'],
    [http(404), 'student', 'classNotFound', '/classroom'],
    [http(418), 'teacher', 'noAccess', '/'],
    [http(403), 'teacher', 'noAccess', '/'],
    [media('forbidden'), 'teacher', 'noAccess', '/'],
    [http(418), 'student', 'noAccess', '/lecture/info/7'],
    [media('forbidden'), 'student', 'noAccess', '/lecture/info/7'],
    [new NotMemberError(), 'student', 'noAccess', '/lecture/info/7'],
    [media('notLive'), 'student', 'notLive', null],
    [media('notLive'), 'teacher', 'unknown', null],
    [media('full'), 'student', 'full', null],
    [media('full'), 'teacher', 'unknown', null],
    [http(0), 'teacher', 'unreachable', null],
    [media('timeout'), 'student', 'unreachable', null],
    [media('offline'), 'teacher', 'unreachable', null],
    [http(500), 'teacher', 'unknown', null],
    [http(400), 'student', 'unknown', null],
    [media('unauthorized'), 'teacher', 'unknown', null],
    [media('internal'), 'student', 'unknown', null],
    [new TypeError('x is undefined'), 'teacher', 'unknown', null],
  ] as const)('%o in the %s room → %s, going to %s', (cause, role, kind, to) => {
    expect(roomFailure(cause, role, 7)).toMatchObject({ kind, to });
  });

  it('says each in Korean as the catalogue does', () => {
    expect(roomFailure(http(401), 'teacher', 7).message).toBe('권한이 없어요. 다시 로그인해 주세요.');
    expect(roomFailure(http(404), 'teacher', 7).message).toBe('강의를 찾을 수 없어요.');
    expect(roomFailure(http(418), 'teacher', 7).message).toBe('강의에 접근할 권한이 없어요.');
    expect(roomFailure(media('full'), 'student', 7).message).toBe(
      '강의실이 가득 차서 입장하지 못했어요. 잠시 후 다시 시도해 주세요.',
    );
    expect(roomFailure(http(500), 'teacher', 7).message).toBe(
      '알 수 없는 오류가 발생했어요. 잠시 후 다시 시도해 주세요.',
    );
  });
});
