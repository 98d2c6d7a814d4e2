import { paths } from '../../config/paths.ts';
import { isHttpError } from '../../lib/http-error.ts';
import { LiveRequestError } from './signalling-client.ts';
import { LIVE_TEXTS } from './texts.ts';

/** Why a live room could not be entered, as the person is told. */
export type RoomFailure = {
  kind: 'loginAgain' | 'classNotFound' | 'noAccess' | 'notLive' | 'full' | 'unreachable' | 'unknown';
  /** Korean: a notice when the room goes elsewhere (`to`), else the room's own message. */
  message: string;
  /** Where the room goes instead (product-spec section 8, live state), or null to stay and say why. */
  to: string | null;
};

const texts = LIVE_TEXTS.refusal;

/**
 * The caller is neither the class's teacher nor one of its students, as the class's role said before the room
 * asked for anything (the live ticket would have been refused with a 418).
 */
export class NotMemberError extends Error {
  constructor() {
    super('not a member of the class');
  }
}

/**
 * Maps a failed entry (the live ticket's HTTP error after the client's token refresh, or the media service's
 * refusal) to the spec's live-state errors: 401 → log in again (/login); 404 → the class could not be found
 * (the teacher's /mypage, the student's /classroom); 418, {@link NotMemberError} or `forbidden` → no access (the teacher to /, the
 * student to the class introduction, where enrolling is); anything else stays in the room with the unknown
 * error (or, when the server could not be reached, says so). A student's `notLive` stays too: the class has
 * simply not started. So does a student refused as `full`: the media node has no room for one more (trying again
 * later may work).
 */
export function roomFailure(cause: unknown, role: 'teacher' | 'student', classId: number): RoomFailure {
  if (isHttpError(cause, 401)) return { kind: 'loginAgain', message: texts.loginAgain, to: paths.login.to() };
  if (isHttpError(cause, 404)) {
    const to = role === 'teacher' ? paths.mypage.to() : paths.classroom.to();
    return { kind: 'classNotFound', message: texts.classNotFound, to };
  }
  if (
    isHttpError(cause, 418, 403) ||
    cause instanceof NotMemberError ||
    (cause instanceof LiveRequestError && cause.code === 'forbidden')
  ) {
    const to = role === 'teacher' ? paths.home.to() : paths.lectureInfo.to(classId);
    return { kind: 'noAccess', message: texts.noAccess, to };
  }
  if (role === 'student' && cause instanceof LiveRequestError && cause.code === 'notLive') {
    return { kind: 'notLive', message: LIVE_TEXTS.notLive, to: null };
  }
  if (role === 'student' && cause instanceof LiveRequestError && cause.code === 'full') {
    return { kind: 'full', message: texts.full, to: null };
  }
  if (
    isHttpError(cause, 0) ||
    (cause instanceof LiveRequestError && (cause.code === 'timeout' || cause.code === 'offline'))
  ) {
    return { kind: 'unreachable', message: texts.unreachable, to: null };
  }
  return { kind: 'unknown', message: texts.unknown, to: null };
}
