import { ChatSendSchema, chatTopic, MAX_CHAT_LENGTH, type ChatMessage } from '@sea/contract/chat';
import { hasControlCharacter, TEXT_MESSAGES } from '@sea/contract/text';
import { fitsLength } from '@sea/contract/text-length';
import type { RoomAccess, RoomLog, MessageLog, SendHandler, SendLimiter } from '../room-bus/room-ports.ts';
import type { Delivery } from '../room-bus/delivery.ts';
import { NOT_A_MEMBER } from '../room-bus/membership-watch.ts';
import type { ChatGate } from './moderation-store.ts';
import { RecentIds } from '../room-bus/recent-ids.ts';
import { gateRefusal, parseJson, refuse } from '../room-bus/refusals.ts';
import type { StompOutcome, StompSubscriber } from '../stomp/stomp-ports.ts';

export interface ChatMessagesOptions {
  access: Pick<RoomAccess, 'roleOf'>;
  messages: Pick<MessageLog, 'save'>;
  limiter: SendLimiter;
  /** Mutes and slow mode (students only); none: no moderation. */
  gate?: ChatGate | undefined;
  delivery: Delivery;
  /** Hands a stored message to the fan-out (every instance's subscribers, this one's included). */
  publish: (message: ChatMessage) => void;
  log: RoomLog;
}

const OK: StompOutcome = { type: 'ok' };

/**
 * The chat messages of a room: a SEND to `/app/hello` is limited, checked, stored, and only then published, so
 * whatever any subscriber saw is also in the history; a stored message reaches this instance's subscribers of
 * `/topic/greetings/{classId}` once per id, however often the fan-out or the catch-up hands it over.
 */
export class ChatMessages implements SendHandler {
  readonly #options: ChatMessagesOptions;
  readonly #delivered = new RecentIds(50_000);

  constructor(options: ChatMessagesOptions) {
    this.#options = options;
  }

  /** Handles a SEND: limits, body, membership, then store and publish. */
  async send(subscriber: StompSubscriber, body: string): Promise<StompOutcome> {
    const { access, limiter, messages, log } = this.#options;
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
    const role = await access.roleOf(classId, subscriber.userId);
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
    this.#options.publish(message);
    return OK;
  }

  /** Queues a stored message for this instance's subscribers of its class, once per message id. */
  deliver(message: ChatMessage): void {
    if (!this.#delivered.add(message.id)) return;
    this.#options.delivery.enqueue(chatTopic(message.roomId), String(message.id), message);
  }
}
