import { NO_STOMP_METER, type StompMeter, type StompSubscriber } from '../stomp/stomp-ports.ts';
import type { RoomLog, RoomEvent } from './room-ports.ts';
import { encodeFrame, stompFrame } from '../stomp/stomp-frame.ts';
import type { Subscription, Subscriptions } from './subscriptions.ts';

/**
 * A MESSAGE waiting to be written: where it goes, its message-id, and its JSON body (encoded once per view):
 * `value` for everyone, or for the teacher when `student` (students' view) or `own` (some users' own view) is set.
 */
type Outgoing = {
  destination: string;
  messageId: string;
  value: unknown;
  student?: unknown;
  own?: { userIds: ReadonlySet<string>; body: unknown };
};

/** Which body of an outgoing message a subscription reads: (t)eacher/everyone, (s)tudent, (o)wn. */
type View = 't' | 's' | 'o';

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
  readonly #log: RoomLog;
  readonly #meter: StompMeter;
  #outbox: Outgoing[] = [];

  constructor(subscriptions: Subscriptions, log: RoomLog, meter: StompMeter = NO_STOMP_METER) {
    this.#subscriptions = subscriptions;
    this.#log = log;
    this.#meter = meter;
  }

  /**
   * Queues a room event for the subscribers of its destination (nothing when there are none here), each
   * reading the view its role (or being named in `own`) gives it.
   */
  enqueueEvent(event: RoomEvent): void {
    const outgoing: Outgoing = { destination: event.destination, messageId: event.id, value: event.body };
    if (event.student !== undefined) outgoing.student = event.student;
    if (event.own) outgoing.own = { userIds: new Set(event.own.userIds), body: event.own.body };
    this.#push(outgoing);
  }

  /**
   * Writes one MESSAGE to one subscription at once, outside the batches (a topic's current state, told to a new
   * subscriber only).
   */
  sendNow(subscription: Subscription, messageId: string, body: unknown): void {
    const { subscriber, id, topic } = subscription;
    const bytes = encoder.encode(JSON.stringify(body));
    subscriber.sendBytes(messageFrame(topic.destination, messageId, id, bytes, subscriber.version));
    this.#meter.delivered(1);
  }

  #push(outgoing: Outgoing): void {
    if (this.#subscriptions.of(outgoing.destination) === undefined) return;
    this.#outbox.push(outgoing);
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
    // Counted once per flush, not per subscriber: a thousand counter calls a batch showed in bench/chat.
    let delivered = 0;
    for (const [destination, messages] of byDestination) {
      const set = this.#subscriptions.of(destination);
      if (!set) continue;
      const bodies = messages.map((message) => new Bodies(message));
      const viewed = messages.some((message) => message.student !== undefined || message.own);
      const encoded = new Map<string, Uint8Array>();
      // A subscription removed during the loop (a slow subscriber closed) is skipped by the Set's iterator.
      for (const subscription of set) {
        const { subscriber, id } = subscription;
        try {
          const views = viewed ? messages.map((message) => viewOf(message, subscription)) : [];
          const key = `${subscriber.version}\n${id}\n${views.join('')}`;
          let bytes = encoded.get(key);
          if (!bytes) {
            bytes = concat(
              bodies.map((body, index) =>
                messageFrame(
                  destination,
                  body.messageId,
                  id,
                  body.of(views[index] ?? 't'),
                  subscriber.version,
                ),
              ),
            );
            encoded.set(key, bytes);
          }
          subscriber.sendBytes(bytes);
          delivered += messages.length;
        } catch (error) {
          this.#log('error', `chat delivery to ${subscriber.userId} failed; closing that session`, error);
          this.#abort(subscriber);
        }
      }
    }
    this.#meter.delivered(delivered);
  }

  #abort(subscriber: StompSubscriber): void {
    try {
      subscriber.abort('internal error');
    } catch (error) {
      this.#log('error', 'chat session could not be closed', error);
    }
  }
}

function viewOf(message: Outgoing, subscription: Subscription): View {
  if (message.own?.userIds.has(subscription.subscriber.userId)) return 'o';
  return subscription.role === 'student' && message.student !== undefined ? 's' : 't';
}

/** The encoded bodies of one outgoing message, each view encoded once, when first needed. */
class Bodies {
  readonly messageId: string;
  readonly #message: Outgoing;
  readonly #encoded = new Map<View, Uint8Array>();

  constructor(message: Outgoing) {
    this.messageId = message.messageId;
    this.#message = message;
  }

  of(view: View): Uint8Array {
    let bytes = this.#encoded.get(view);
    if (!bytes) {
      const message = this.#message;
      const value = view === 'o' ? message.own?.body : view === 's' ? message.student : message.value;
      bytes = encoder.encode(JSON.stringify(value));
      this.#encoded.set(view, bytes);
    }
    return bytes;
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
