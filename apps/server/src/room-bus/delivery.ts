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
  throttled?: true;
};

/** Which body of an outgoing message a subscription reads: (t)eacher/everyone, (s)tudent, (o)wn. */
type View = 't' | 's' | 'o';

const encoder = new TextEncoder();

/**
 * How long a throttled update (a room state published at most a few times a second: a poll's counts, a
 * question's votes, the reactions' sums) may wait to be written with other news. The throttles' timers do not tick together, so
 * without it each update was a socket write of its own to every member (bench/classroom's CPU profile of the
 * storm). Under the reactions' slot margin (`reaction-aggregator.ts`): a member still gets at most five of those
 * in any second.
 */
export const THROTTLED_HOLD_MS = 50;

/**
 * Writes MESSAGE frames to the subscribers of room topics, for every kind of room topic. What is queued in one
 * turn of the event loop is written at its end, all together, and a throttled update waits up to
 * {@link THROTTLED_HOLD_MS} for other news: each subscriber then gets one socket write for all of it, whatever
 * the destinations, instead of one write per message or per topic. Each body is encoded once, and each frame once
 * per STOMP version and subscription id: most clients name their subscriptions alike (stompjs: "sub-0",
 * "sub-1"...), so one encoding serves nearly all of a room.
 */
export class Delivery {
  readonly #subscriptions: Subscriptions;
  readonly #log: RoomLog;
  readonly #meter: StompMeter;
  #outbox: Outgoing[] = [];
  /** The flush at the end of this turn, when something that is not throttled is queued. */
  #soon: NodeJS.Immediate | null = null;
  /** The flush of throttled updates alone, when nothing else comes first. */
  #held: NodeJS.Timeout | null = null;

  constructor(subscriptions: Subscriptions, log: RoomLog, meter: StompMeter = NO_STOMP_METER) {
    this.#subscriptions = subscriptions;
    this.#log = log;
    this.#meter = meter;
  }

  /**
   * Queues a room event for the subscribers of its destination (nothing when there are none here), each
   * reading the view its role (or being named in `own`) gives it. A throttled one may wait a little (above).
   */
  enqueueEvent(event: RoomEvent): void {
    if (this.#subscriptions.of(event.destination) === undefined) return;
    const outgoing: Outgoing = { destination: event.destination, messageId: event.id, value: event.body };
    if (event.student !== undefined) outgoing.student = event.student;
    if (event.own) outgoing.own = { userIds: new Set(event.own.userIds), body: event.own.body };
    if (event.throttled) outgoing.throttled = true;
    this.#outbox.push(outgoing);
    if (this.#soon !== null) return;
    if (!event.throttled) this.#soon = setImmediate(() => this.flush());
    else if (this.#held === null) {
      this.#held = setTimeout(() => this.flush(), THROTTLED_HOLD_MS);
      this.#held.unref();
    }
  }

  /**
   * Writes one MESSAGE to one subscription at once, outside the batches (a topic's current state, told to a new
   * subscriber only). What is queued goes first: it may be older than that state.
   */
  sendNow(subscription: Subscription, messageId: string, body: unknown): void {
    this.flush();
    const { subscriber, id, topic } = subscription;
    const bytes = encoder.encode(JSON.stringify(body));
    subscriber.sendBytes(messageFrame(topic.destination, messageId, id, bytes, subscriber.version));
    this.#meter.delivered(1);
  }

  /**
   * Writes everything queued now, one write per subscriber. Runs outside any caller too (in setImmediate or a
   * timer): nothing may escape it, and one subscriber cannot stop the rest.
   */
  flush(): void {
    if (this.#soon !== null) clearImmediate(this.#soon);
    if (this.#held !== null) clearTimeout(this.#held);
    this.#soon = null;
    this.#held = null;
    const batch = this.#outbox;
    if (batch.length === 0) return;
    this.#outbox = [];
    const { writes, teachers, delivered } = this.#frames(batch);
    // Most subscribers' frames are the same buffers: they share one joined buffer too.
    const joined = new Joined();
    const write = (subscriber: StompSubscriber, parts: Uint8Array[]): void => {
      try {
        subscriber.sendBytes(joined.of(parts));
      } catch (error) {
        this.#failed(subscriber, error);
      }
    };
    // The teachers first: a question is for them, and a room's writes take a while. A subscriber closed during
    // the loop (a slow one) is skipped by its session.
    for (const [subscriber, parts] of writes) if (teachers.has(subscriber)) write(subscriber, parts);
    for (const [subscriber, parts] of writes) if (!teachers.has(subscriber)) write(subscriber, parts);
    // Counted once per flush, not per subscriber: a thousand counter calls a batch showed in bench/chat.
    this.#meter.delivered(delivered);
  }

  /**
   * Each subscriber's frames of every destination in `batch`, the subscribers who are a room's teacher, and how
   * many messages the frames hold in all.
   */
  #frames(batch: Outgoing[]): {
    writes: Map<StompSubscriber, Uint8Array[]>;
    teachers: Set<StompSubscriber>;
    delivered: number;
  } {
    const writes = new Map<StompSubscriber, Uint8Array[]>();
    const teachers = new Set<StompSubscriber>();
    let delivered = 0;
    for (const [destination, messages] of byDestination(batch)) {
      const set = this.#subscriptions.of(destination);
      if (!set) continue;
      const bodies = messages.map((message) => new Bodies(message));
      const viewed = messages.some((message) => message.student !== undefined || message.own);
      const encoded = new Map<string, Uint8Array>();
      for (const subscription of set) {
        const { subscriber, id } = subscription;
        try {
          const views = viewed ? messages.map((message) => viewOf(message, subscription)) : [];
          const key = `${subscriber.version}\n${id}\n${views.join('')}`;
          let bytes = encoded.get(key);
          if (!bytes) {
            const frames = bodies.map((body, index) =>
              messageFrame(destination, body.messageId, id, body.of(views[index] ?? 't'), subscriber.version),
            );
            bytes = concat(frames);
            encoded.set(key, bytes);
          }
          const parts = writes.get(subscriber);
          if (parts) parts.push(bytes);
          else writes.set(subscriber, [bytes]);
          if (subscription.role === 'teacher') teachers.add(subscriber);
          delivered += messages.length;
        } catch (error) {
          this.#failed(subscriber, error);
        }
      }
    }
    return { writes, teachers, delivered };
  }

  #failed(subscriber: StompSubscriber, error: unknown): void {
    this.#log('error', `chat delivery to ${subscriber.userId} failed; closing that session`, error);
    try {
      subscriber.abort('internal error');
    } catch (closing) {
      this.#log('error', 'chat session could not be closed', closing);
    }
  }
}

/**
 * The messages of `batch` by destination, each destination's in order; the destinations with news that is not
 * throttled first, so that their subscribers' writes go first (a question reaches the teacher before the
 * reactions' sums reach the room).
 */
function byDestination(batch: Outgoing[]): Map<string, Outgoing[]> {
  const grouped = new Map<string, Outgoing[]>();
  for (const outgoing of batch) if (!outgoing.throttled) grouped.set(outgoing.destination, []);
  for (const outgoing of batch) {
    const list = grouped.get(outgoing.destination);
    if (list) list.push(outgoing);
    else grouped.set(outgoing.destination, [outgoing]);
  }
  return grouped;
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

/** Buffers joined, each distinct list of parts once. */
class Joined {
  readonly #numbers = new Map<Uint8Array, number>();
  readonly #joined = new Map<string, Uint8Array>();

  of(parts: Uint8Array[]): Uint8Array {
    const [first] = parts;
    if (parts.length === 1 && first) return first;
    const key = parts.map((part) => this.#number(part)).join(',');
    let bytes = this.#joined.get(key);
    if (!bytes) {
      bytes = concat(parts);
      this.#joined.set(key, bytes);
    }
    return bytes;
  }

  #number(part: Uint8Array): number {
    let number = this.#numbers.get(part);
    if (number === undefined) {
      number = this.#numbers.size;
      this.#numbers.set(part, number);
    }
    return number;
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
