import type { LiveErrorCode } from '@sea/contract/live';

/** A refusal that the signalling layer answers as `{ error: { code, message } }` (messages in Korean). */
export class LiveError extends Error {
  readonly code: LiveErrorCode;
  /** Whether the server closes the connection after answering (refused entry). */
  readonly fatal: boolean;
  constructor(code: LiveErrorCode, message: string, fatal = false) {
    super(message);
    this.code = code;
    this.fatal = fatal;
  }
}

export const forbidden = (message = '이 요청을 할 권한이 없어요.', fatal = false) =>
  new LiveError('forbidden', message, fatal);
export const notLive = () => new LiveError('notLive', '지금은 진행 중인 강의가 아니에요.', true);
/** The node holds as many students as it can serve well: one more would degrade everyone's stream. */
export const full = () => new LiveError('full', '강의실이 가득 찼어요. 잠시 후 다시 입장해 주세요.', true);
export const notInRoom = () => new LiveError('notInRoom', '먼저 강의실에 입장해야 해요.');
/** What a request named that the peer does not have, in the words of its refusal. */
const MISSING = {
  transport: '연결을',
  consumer: '받는 스트림을',
  mline: '보내는 미디어 항목을',
} as const;
export const notFound = (what: keyof typeof MISSING) =>
  new LiveError('notFound', `요청한 ${MISSING[what]} 찾을 수 없어요.`);
export const conflict = (message: string) => new LiveError('conflict', message);
export const badRequest = (message: string) => new LiveError('badRequest', message);
