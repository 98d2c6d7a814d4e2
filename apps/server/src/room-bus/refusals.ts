import type { ChatRefusalCode } from '@sea/contract/chat';
import type { StompOutcome } from '../stomp/stomp-ports.ts';

/** The Korean reasons of the room's refusals, said to the person whose SEND was refused. */
export const REFUSAL_TEXTS = {
  badRequest: '요청 형식이 올바르지 않아요.',
  teacherOnly: '강사만 할 수 있어요.',
  unavailable: '지금은 처리하지 못했어요. 잠시 후 다시 시도해 주세요.',
  messageNotFound: '이미 삭제되었거나 없는 메시지예요.',
} as const;

/** A refused SEND: the connection stays, the sender hears `message` on the error queue. */
export function refuse(code: ChatRefusalCode, message: string): StompOutcome {
  return { type: 'refused', code, message };
}

/** The JSON of a SEND's body, or null when it is not JSON. */
export function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}
