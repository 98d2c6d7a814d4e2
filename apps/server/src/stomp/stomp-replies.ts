import {
  CHAT_ERROR_DESTINATION,
  CHAT_RECONNECT_HEADER,
  CHAT_RESTART_MESSAGE,
  CHAT_RESTART_RECONNECT_MS,
  type ChatRefusal,
} from '@sea/contract/chat';
import { stompFrame, type StompFrame } from './stomp-frame.ts';
import type { StompOutcome } from './stomp-ports.ts';

const SERVER_NAME = 'sea-chat/1';
/** Numbers refusal MESSAGEs: a message-id must be unique, and two refusals can share a millisecond. */
let refusalCount = 0;

// The frames a session answers with, besides RECEIPTs and the MESSAGEs the broker encodes.

/** A heart-beat: one end of line between frames. */
export const HEARTBEAT = new Uint8Array([0x0a]);

/** CONNECTED for the negotiated version, offering `heartbeatMs` each way (1.0 has no heart-beats). */
export function connectedFrame(version: string, heartbeatMs: number): StompFrame {
  const headers: Record<string, string> = { version, server: SERVER_NAME };
  if (version !== '1.0') headers['heart-beat'] = `${heartbeatMs},${heartbeatMs}`;
  return stompFrame('CONNECTED', headers);
}

/** The ERROR that ends a session: why, and the receipt of the frame that caused it. */
export function errorFrame(
  message: string,
  receipt?: string,
  extra: Record<string, string> = {},
): StompFrame {
  const headers: Record<string, string> = { message, 'content-type': 'text/plain', ...extra };
  if (receipt !== undefined) headers['receipt-id'] = receipt;
  return stompFrame('ERROR', headers, message);
}

/** The ERROR of a server that is stopping: reconnect after {@link CHAT_RECONNECT_HEADER}, said in Korean. */
export function restartFrame(): StompFrame {
  const headers = {
    message: CHAT_RESTART_MESSAGE,
    [CHAT_RECONNECT_HEADER]: String(CHAT_RESTART_RECONNECT_MS),
    'content-type': 'text/plain;charset=utf-8',
  };
  return stompFrame('ERROR', headers, CHAT_RESTART_MESSAGE);
}

/** The MESSAGE on the sender's error queue (subscription `subscription`) that tells of a refused SEND. */
export function refusalFrame(
  outcome: Extract<StompOutcome, { type: 'refused' }>,
  receipt: string | undefined,
  subscription: string,
): StompFrame {
  const refusal: ChatRefusal = { code: outcome.code, message: outcome.message, receipt: receipt ?? null };
  const headers = {
    destination: CHAT_ERROR_DESTINATION,
    subscription,
    'message-id': `refusal-${++refusalCount}`,
    'content-type': 'application/json;charset=utf-8',
  };
  return stompFrame('MESSAGE', headers, JSON.stringify(refusal));
}
