import { CHAT_SEND_DESTINATION, type ChatMessage, type RoomRole } from '@sea/contract/chat';
import { CatchUp } from '../chat/catch-up.ts';
import { ChatMessages } from '../chat/chat-messages.ts';
import type { StompMeter, StompOutcome, StompSubscriber } from '../stomp/stomp-ports.ts';
import type {
  RoomAccess,
  RoomLog,
  FanOut,
  FanOutTarget,
  MembershipScope,
  MessageLog,
  RoomContext,
  RoomEvent,
  SendHandler,
  SendLimiter,
} from './room-ports.ts';
import { Delivery } from './delivery.ts';
import { MembershipWatch, NOT_A_MEMBER } from './membership-watch.ts';
import type { ChatGate } from '../chat/moderation-store.ts';
import { RecentIds } from './recent-ids.ts';
import { parseRoomTopic } from './room-topics.ts';
import { type Subscription, Subscriptions } from './subscriptions.ts';
import { TokenBuckets, type TokenBucketOptions } from './token-buckets.ts';

export interface RoomBrokerOptions {
  /** Who may connect, subscribe and write. */
  access: RoomAccess;
  /** Where messages are stored and re-read after a fan-out outage. */
  messages: MessageLog;
  /** Builds the fan-out once the broker exists, so the fan-out can call back into it. */
  fanOut: (target: FanOutTarget) => FanOut;
  /** The limit of memory buckets made here, unless `limiter` is given. */
  rateLimit?: TokenBucketOptions;
  /** Where the per-user limit is kept (Redis-shared buckets with several instances). */
  limiter?: SendLimiter;
  maxSubscriptionsPerSession?: number;
  log?: RoomLog;
  /** Counts deliveries (the metrics); none by default. */
  meter?: StompMeter;
  now?: () => number;
  /** How long before the fan-out went away the catch-up starts reading (see `CatchUp`). */
  catchUpMarginMs?: number;
  /** Pause before the catch-up is tried again when the database failed it; doubled on each try. */
  catchUpRetryMs?: number;
  /**
   * How often every subscription's membership is read again (0: never), the backstop for an ended membership
   * whose news did not arrive (Redis away, a change made outside this server).
   */
  membershipCheckMs?: number;
  /** Mutes and slow mode: whether a student may write now (none: everyone may). */
  gate?: ChatGate;
}

/** Ten messages at once, then two a second: more than anyone types, far less than a script sends. */
export const DEFAULT_CHAT_RATE_LIMIT: TokenBucketOptions = { capacity: 10, refillPerSecond: 2 };

const OK: StompOutcome = { type: 'ok' };

/**
 * What a new subscriber of a topic is told first: the room's current state, as bodies of the topic's own
 * events (see {@link RoomBroker.greet}).
 */
export type Greeting = (roomId: number, userId: string, role: RoomRole) => Promise<unknown[]>;

/** Reads of a greeting before it is sent even though news of its topic keeps arriving meanwhile. */
const GREETING_TRIES = 3;
let greetingCount = 0;

/**
 * The chat domain behind the STOMP sessions, composed of named parts: the {@link Subscriptions} registry of room
 * topics, {@link Delivery} (batched, pre-encoded MESSAGE frames), the {@link CatchUp} after a fan-out outage, the
 * {@link MembershipWatch} that ends sessions whose membership ended, and one {@link SendHandler} per SEND
 * destination ({@link ChatMessages} for `/app/hello`). A new kind of room news adds its topic prefix
 * (`room-topics.ts`) and its handler here; the other parts serve every kind alike.
 */
export class RoomBroker implements FanOutTarget, RoomContext {
  readonly #access: RoomAccess;
  readonly #fanOut: FanOut;
  readonly #maxSubscriptions: number;
  readonly #subscriptions = new Subscriptions();
  readonly #chat: ChatMessages;
  readonly #senders: Map<string, SendHandler>;
  readonly #delivery: Delivery;
  readonly #deliveredEvents = new RecentIds<string>(50_000);
  readonly #interceptors = new Map<string, (event: RoomEvent) => void>();
  readonly #greetings = new Map<string, Greeting>();
  /** Room events queued here so far, by destination of a greeted topic: a greeting read meanwhile may be old. */
  readonly #greetedNews = new Map<string, number>();
  readonly #catchUp: CatchUp;
  readonly #watch: MembershipWatch;
  readonly #log: RoomLog;

  constructor(options: RoomBrokerOptions) {
    const log = options.log ?? (() => undefined);
    const now = options.now ?? Date.now;
    this.#log = log;
    this.#access = options.access;
    this.#maxSubscriptions = options.maxSubscriptionsPerSession ?? 16;
    this.#fanOut = options.fanOut(this);
    this.#delivery = new Delivery(this.#subscriptions, log, options.meter);
    this.#chat = new ChatMessages({
      access: options.access,
      messages: options.messages,
      limiter: options.limiter ?? new TokenBuckets(options.rateLimit ?? DEFAULT_CHAT_RATE_LIMIT, options.now),
      gate: options.gate,
      delivery: this.#delivery,
      publish: (message) => this.#fanOut.publish(message),
      log,
    });
    this.#senders = new Map([[CHAT_SEND_DESTINATION, this.#chat]]);
    this.#catchUp = new CatchUp({
      messages: options.messages,
      roomIds: () => this.#subscriptions.roomIds(),
      deliver: (message) => this.#chat.deliver(message),
      log,
      now,
      marginMs: options.catchUpMarginMs,
      retryMs: options.catchUpRetryMs,
    });
    this.#watch = new MembershipWatch({
      access: options.access,
      subscriptions: this.#subscriptions,
      log,
      everyMs: options.membershipCheckMs,
    });
  }

  /** Identifies the user of a CONNECT's bearer token; null refuses the connection. */
  authenticate(token: string): Promise<string | null> {
    return this.#access.authenticate(token);
  }

  /** Adds a subscription after checking that the destination is a room topic of a class the user belongs to. */
  async subscribe(subscriber: StompSubscriber, id: string, destination: string): Promise<StompOutcome> {
    const topic = parseRoomTopic(destination);
    if (topic === null) return { type: 'fatal', message: 'unknown destination' };
    if (this.#subscriptions.has(subscriber, id)) {
      return { type: 'fatal', message: 'subscription id already in use' };
    }
    if (this.#subscriptions.countOf(subscriber) >= this.#maxSubscriptions) {
      return { type: 'fatal', message: 'too many subscriptions' };
    }
    const role = await this.#access.roleOf(topic.roomId, subscriber.userId);
    if (role === null) return { type: 'fatal', message: NOT_A_MEMBER };
    // The session may have closed, or subscribed the same id, while the membership check was running.
    if (!subscriber.open) return OK;
    if (this.#subscriptions.has(subscriber, id)) {
      return { type: 'fatal', message: 'subscription id already in use' };
    }
    const subscription = this.#subscriptions.add(subscriber, id, topic, role);
    const greeting = [...this.#greetings].find(([prefix]) => destination.startsWith(prefix))?.[1];
    if (greeting) await this.#greet(subscription, greeting);
    return OK;
  }

  /**
   * Tells every new subscriber of the topics under `prefix` the room's current state first (before the
   * SUBSCRIBE's RECEIPT), so a client that joins (or comes back) does not wait for the next change to know it.
   */
  greet(prefix: string, greeting: Greeting): void {
    this.#greetings.set(prefix, greeting);
  }

  async #greet(subscription: Subscription, greeting: Greeting): Promise<void> {
    const { subscriber, topic, role } = subscription;
    // News of the topic delivered while the state was being read may be newer than what the read saw: the
    // state is read again then, so the greeting never undoes a change the subscriber has already heard.
    for (let tries = 1; ; tries += 1) {
      const before = this.#greetedNews.get(topic.destination) ?? 0;
      let bodies: unknown[];
      try {
        bodies = await greeting(topic.roomId, subscriber.userId, role);
      } catch (error) {
        this.#log('warn', `the current state of ${topic.destination} could not be read`, error);
        return;
      }
      if (!subscriber.open || !this.#subscriptions.has(subscriber, subscription.id)) return;
      if ((this.#greetedNews.get(topic.destination) ?? 0) !== before && tries < GREETING_TRIES) continue;
      for (const body of bodies) this.#delivery.sendNow(subscription, `state-${++greetingCount}`, body);
      return;
    }
  }

  /** True when the session has a room subscription with this id. */
  hasSubscription(subscriber: StompSubscriber, id: string): boolean {
    return this.#subscriptions.has(subscriber, id);
  }

  /** Removes a subscription; unknown ids are ignored (the client may race its own UNSUBSCRIBE). */
  unsubscribe(subscriber: StompSubscriber, id: string): void {
    this.#subscriptions.remove(subscriber, id);
  }

  /** Drops every subscription of a closed session. */
  disconnected(subscriber: StompSubscriber): void {
    this.#subscriptions.removeAll(subscriber);
  }

  /** Hands a SEND to the handler of its destination. */
  send(subscriber: StompSubscriber, destination: string, body: string): Promise<StompOutcome> {
    const handler = this.#senders.get(destination);
    if (!handler) return Promise.resolve({ type: 'fatal', message: 'unknown destination' });
    return handler.send(subscriber, body);
  }

  /**
   * Adds the handler of another SEND destination (a classroom action); the destination's topic prefix must be
   * in `room-topics.ts` for clients to subscribe to its news.
   */
  handle(destination: string, handler: SendHandler): void {
    if (this.#senders.has(destination)) throw new Error(`${destination} already has a handler`);
    this.#senders.set(destination, handler);
  }

  /** The user's role in the room (the chat's briefly cached membership), null for a stranger. */
  roleOf(roomId: number, userId: string): Promise<RoomRole | null> {
    return this.#access.roleOf(roomId, userId);
  }

  /** Sends a room event to its subscribers on every instance (this one's at the end of the turn). */
  publishEvent(event: RoomEvent): void {
    this.#fanOut.publishEvent(event);
  }

  /**
   * Queues a room event for this instance's subscribers, once per event id; an event on an intercepted topic
   * goes to its interceptor instead (see {@link intercept}).
   */
  deliverEvent(event: RoomEvent): void {
    if (!this.#deliveredEvents.add(event.id)) return;
    this.#countGreetedNews(event.destination);
    for (const [prefix, interceptor] of this.#interceptors) {
      if (event.destination.startsWith(prefix)) return interceptor(event);
    }
    this.#delivery.enqueueEvent(event);
  }

  /**
   * Hands the events of the topics under `prefix` that arrive from any instance to `interceptor` instead of the
   * subscribers: a module that aggregates (reactions) delivers its own result with {@link deliverLocally}.
   */
  intercept(prefix: string, interceptor: (event: RoomEvent) => void): void {
    this.#interceptors.set(prefix, interceptor);
  }

  #countGreetedNews(destination: string): void {
    for (const prefix of this.#greetings.keys()) {
      if (!destination.startsWith(prefix)) continue;
      // Only a change during a greeting's read matters: forgetting old counts now and then is harmless.
      if (this.#greetedNews.size >= 10_000) this.#greetedNews.clear();
      this.#greetedNews.set(destination, (this.#greetedNews.get(destination) ?? 0) + 1);
    }
  }

  /** Queues a room event for this instance's subscribers only (no fan-out, no interception). */
  deliverLocally(event: RoomEvent): void {
    this.#delivery.enqueueEvent(event);
  }

  /**
   * Hands a stored message to this instance's subscribers of its class, once per message id, written at the
   * end of the current turn of the event loop together with the others of that turn (see {@link Delivery}).
   */
  deliver(message: ChatMessage): void {
    this.#chat.deliver(message);
  }

  /** The fan-out lost its transport: remember when, so the catch-up knows where to start. */
  suspended(): void {
    this.#catchUp.suspended();
  }

  /**
   * The fan-out is back: re-read from the database what may have been missed, for every class with subscribers
   * here, and deliver what this instance has not delivered yet (repeats are dropped by id); see {@link CatchUp}.
   */
  resumed(): void {
    // News of ended memberships may have been lost with the transport too.
    if (this.#catchUp.resumed()) void this.#watch.recheck('all');
  }

  /**
   * A class was deleted: its subscribers here and on every other instance lose it. Called by the classes
   * module once the deletion is stored.
   */
  classDeleted(classId: number): void {
    this.#membershipsEnded({ classId });
  }

  /**
   * A user withdrew: their enrolments ended and the classes they taught were deleted, so every class with
   * subscribers is checked, here and on every other instance. Called by the users module once it is stored.
   */
  userWithdrawn(): void {
    this.#membershipsEnded('all');
  }

  /**
   * A student's enrolment ended (수강 취소): the class's subscribers here and on every other instance are
   * checked. Called by the enrolments module once it is stored.
   */
  enrolmentEnded(classId: number): void {
    this.#membershipsEnded({ classId });
  }

  recheckMemberships(scope: MembershipScope): void {
    void this.#watch.recheck(scope);
  }

  #membershipsEnded(scope: MembershipScope): void {
    this.#fanOut.announce(scope);
    void this.#watch.recheck(scope);
  }

  /** Number of live subscriptions (for tests and the benchmark). */
  get subscriptionCount(): number {
    return this.#subscriptions.size;
  }

  /** Stops the fan-out and the membership checks; sessions are closed by their transport. */
  close(): Promise<void> {
    this.#watch.close();
    return this.#fanOut.close();
  }
}
