import { ChatSendSchema, chatTopic, MAX_CHAT_LENGTH, type ChatMessage } from '@sea/contract/chat';
import { hasControlCharacter, TEXT_MESSAGES } from '@sea/contract/text';
import { fitsLength } from '@sea/contract/text-length';
import { NOT_A_MEMBER } from '../room-bus/membership-watch.ts';
import { parseJson, refuse } from '../room-bus/refusals.ts';
import type { RoomContext, RoomEvent, RoomLog, SendHandler, SendLimiter } from '../room-bus/room-ports.ts';
import type { StompOutcome, StompSubscriber } from '../stomp/stomp-ports.ts';
import { gateRefusal } from './gate-refusal.ts';
import type { MessageLog } from './message-log.ts';
import type { ChatGate } from './moderation-store.ts';

export interface ChatMessagesOptions {
  /** The room bus: the writer's role, and the fan-out to every instance's subscribers (this one's included). */
  room: RoomContext;
  messages: Pick<MessageLog, 'save'>;
  limiter: SendLimiter;
  /** Mutes and slow mode (students only); none: no moderation. */
  gate?: ChatGate | undefined;
  log: RoomLog;
}

const OK: StompOutcome = { type: 'ok' };

/**
 * A stored message as news of its room on `/topic/greetings/{classId}`, its id the MESSAGE's message-id: the
 * bus delivers it once per id, however often the fan-out or the catch-up hands it over.
 */
export function chatEvent(message: ChatMessage): RoomEvent {
  return { destination: chatTopic(message.roomId), id: String(message.id), body: message };
}

/**
 * The chat messages of a room: a SEND to `/app/hello` is limited, checked, stored, and only then published on
 * the room bus, so whatever any subscriber saw is also in the history.
 */
export class ChatMessages implements SendHandler {
  readonly #options: ChatMessagesOptions;

  constructor(options: ChatMessagesOptions) {
    this.#options = options;
  }

  /** Handles a SEND: limits, body, membership, then store and publish. */
  async send(subscriber: StompSubscriber, body: string): Promise<StompOutcome> {
    const { room, limiter, messages, log } = this.#options;
    if (!(await limiter.take(subscriber.userId))) {
      return refuse('rate-limited', '메시지를 너무 빨리 보내고 있어요. 잠시 후 다시 보내 주세요.');
    }
    const parsed = ChatSendSchema.safeParse(parseJson(body));
    if (!parsed.success) {
      return refuse('bad-request', '메시지 형식이 올바르지 않아요.');
    }
    const content = parsed.data.content.trim();
    if (content.length === 0) return refuse('blank', '빈 메시지는 보낼 수 없어요.');
    // The rule of every text field: PostgreSQL text cannot hold NUL, nor lone surrogates as UTF-8.
    if (hasControlCharacter(content, true)) return refuse('bad-request', TEXT_MESSAGES.control);
    if (!fitsLength(content, MAX_CHAT_LENGTH)) {
      return refuse('too-long', `메시지는 ${MAX_CHAT_LENGTH.toLocaleString('ko-KR')}자까지 보낼 수 있어요.`);
    }
    const classId = parsed.data.roomId;
    const role = await room.roleOf(classId, subscriber.userId);
    if (role === null) return { type: 'fatal', message: NOT_A_MEMBER };
    let message: ChatMessage;
    try {
      if (role === 'student' && this.#options.gate) {
        const refusal = await this.#options.gate.admitMessage(classId, subscriber.userId);
        if (refusal) return gateRefusal(refusal, Date.now());
      }
      message = await messages.save({ classId, userId: subscriber.userId, role, content });
    } catch (error) {
      log('error', 'chat message could not be stored', error);
      return refuse('unavailable', '메시지를 저장하지 못했어요. 잠시 후 다시 보내 주세요.');
    }
    room.publishEvent(chatEvent(message));
    return OK;
  }
}
