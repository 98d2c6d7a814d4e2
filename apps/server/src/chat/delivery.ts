import { type ChatMeter, NO_CHAT_METER } from './chat-metrics.ts';
import type { ChatLog, ChatSubscriber } from './chat-ports.ts';
import { encodeFrame, stompFrame } from './stomp-frame.ts';
import type { Subscriptions } from './subscriptions.ts';

/** A MESSAGE waiting to be written: where it goes, its message-id, and its JSON body (encoded once). */
type Outgoing = { destination: string; messageId: string; value: unknown };

const encoder = new TextEncoder();

/**
 * Writes MESSAGE frames to the subscribers of a destination, for every kind of room topic. What is queued in
 * one turn of the event loop is written at its end, all together: under load a subscriber then gets one socket
 * write for several messages instead of one write each. Each body is encoded once, and each frame once per
 * STOMP version and subscription id: most clients name their first subscription alike (stompjs: "sub-0"), so
 * one encoding serves nearly all of a room.
 */
export class Delivery {
  readonly #subscriptions: Subscriptions;
  readonly #log: ChatLog;
  readonly #meter: ChatMeter;
  #outbox: Outgoing[] = [];

  constructor(subscriptions: Subscriptions, log: ChatLog, meter: ChatMeter = NO_CHAT_METER) {
    this.#subscriptions = subscriptions;
    this.#log = log;
    this.#meter = meter;
  }

  /** Queues a message for the subscribers of `destination` (nothing when there are none here). */
  enqueue(destination: string, messageId: string, value: unknown): void {
    if (this.#subscriptions.of(destination) === undefined) return;
    this.#outbox.push({ destination, messageId, value });
    if (this.#outbox.length === 1) setImmediate(() => this.#flush());
  }

  /** Runs outside any caller (in setImmediate): nothing may escape it, and one subscriber cannot stop the rest. */
  #flush(): void {
    const batch = this.#outbox;
    this.#outbox = [];
    const byDestination = new Map<string, Outgoing[]>();
    for (const outgoing of batch) {
      const list = byDestination.get(outgoing.destination);
      if (list) list.push(outgoing);
      else byDestination.set(outgoing.destination, [outgoing]);
    }
    for (const [destination, messages] of byDestination) {
      const set = this.#subscriptions.of(destination);
      if (!set) continue;
      const bodies = messages.map(({ messageId, value }) => ({
        messageId,
        body: encoder.encode(JSON.stringify(value)),
      }));
      const encoded = new Map<string, Uint8Array>();
      // A subscription removed during the loop (a slow subscriber closed) is skipped by the Set's iterator.
      for (const { subscriber, id } of set) {
        try {
          const key = `${subscriber.version}\n${id}`;
          let bytes = encoded.get(key);
          if (!bytes) {
            bytes = concat(
              bodies.map(({ messageId, body }) =>
                messageFrame(destination, messageId, id, body, subscriber.version),
              ),
            );
            encoded.set(key, bytes);
          }
          subscriber.sendBytes(bytes);
          this.#meter.delivered(messages.length);
        } catch (error) {
          this.#log('error', `chat delivery to ${subscriber.userId} failed; closing that session`, error);
          this.#abort(subscriber);
        }
      }
    }
  }

  #abort(subscriber: ChatSubscriber): void {
    try {
      subscriber.abort('internal error');
    } catch (error) {
      this.#log('error', 'chat session could not be closed', error);
    }
  }
}

function messageFrame(
  destination: string,
  messageId: string,
  subscription: string,
  body: Uint8Array,
  version: string,
) {
  const headers = {
    destination,
    'message-id': messageId,
    subscription,
    'content-type': 'application/json;charset=utf-8',
  };
  return encodeFrame(stompFrame('MESSAGE', headers, body), version);
}

function concat(parts: Uint8Array[]): Uint8Array {
  if (parts.length === 1 && parts[0]) return parts[0];
  const out = new Uint8Array(parts.reduce((sum, part) => sum + part.length, 0));
  let offset = 0;
  for (const part of parts) {
    out.set(part, offset);
    offset += part.length;
  }
  return out;
}
