import type { RoomRole } from '@sea/contract/chat';
import type { StompBroker, StompMeter, StompOutcome, StompSubscriber } from '../stomp/stomp-ports.ts';
import { Delivery } from './delivery.ts';
import { type Greeting, Greetings } from './greetings.ts';
import { MembershipWatch, NOT_A_MEMBER } from './membership-watch.ts';
import { RecentIds } from './recent-ids.ts';
import type {
  FanOut,
  FanOutTarget,
  MembershipScope,
  Outage,
  RoomAccess,
  RoomContext,
  RoomEvent,
  RoomLog,
  SendHandler,
} from './room-ports.ts';
import { parseRoomTopic } from './room-topics.ts';
import { Subscriptions } from './subscriptions.ts';

export interface RoomBrokerOptions {
  /** Who may connect and subscribe, and each member's role in a room. */
  access: RoomAccess;
  /** Builds the fan-out once the broker exists, so the fan-out can call back into it. */
  fanOut: (target: FanOutTarget) => FanOut;
  maxSubscriptionsPerSession?: number;
  log?: RoomLog;
  /** Counts deliveries (the metrics); none by default. */
  meter?: StompMeter;
  /**
   * How often every subscription's membership is read again (0: never), the backstop for an ended membership
   * whose news did not arrive (Redis away, a change made outside this server).
   */
  membershipCheckMs?: number;
}

const OK: StompOutcome = { type: 'ok' };

/**
 * The room bus behind the STOMP sessions, composed of named parts: the {@link Subscriptions} registry of room
 * topics, {@link Delivery} (batched, pre-encoded MESSAGE frames), the {@link Greetings} of new subscribers, the
 * {@link MembershipWatch} that ends sessions whose membership ended, and one {@link SendHandler} per SEND
 * destination, each registered by its module (the chat's messages and moderation, the classroom's actions). A
 * new kind of room news adds its topic prefix (`room-topics.ts`); the parts here serve every kind alike.
 */
export class RoomBroker implements StompBroker, FanOutTarget, RoomContext {
  readonly #access: RoomAccess;
  readonly #fanOut: FanOut;
  readonly #maxSubscriptions: number;
  readonly #subscriptions = new Subscriptions();
  readonly #senders = new Map<string, SendHandler>();
  readonly #delivery: Delivery;
  readonly #greetings: Greetings;
  readonly #deliveredEvents = new RecentIds<string>(50_000);
  readonly #interceptors = new Map<string, (event: RoomEvent) => void>();
  readonly #outages = new Set<Outage>();
  readonly #watch: MembershipWatch;
  #suspended = false;

  constructor(options: RoomBrokerOptions) {
    const log = options.log ?? (() => undefined);
    this.#access = options.access;
    this.#maxSubscriptions = options.maxSubscriptionsPerSession ?? 16;
    this.#fanOut = options.fanOut(this);
    this.#delivery = new Delivery(this.#subscriptions, log, options.meter);
    this.#greetings = new Greetings(this.#delivery, log);
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

  /**
   * Adds a subscription after checking that the destination is a room topic of a class the user belongs to;
   * a greeted topic's state is told before the answer (see {@link greet}).
   */
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
    await this.#greetings.greet(
      subscription,
      () => subscriber.open && this.#subscriptions.has(subscriber, id),
    );
    return OK;
  }

  /** Tells every new subscriber of the topics under `prefix` the room's current state first. */
  greet(prefix: string, greeting: Greeting): void {
    this.#greetings.add(prefix, greeting);
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
   * Adds the handler of a SEND destination (a chat message, a classroom action); the destination's topic
   * prefix must be in `room-topics.ts` for clients to subscribe to its news.
   */
  handle(destination: string, handler: SendHandler): void {
    if (this.#senders.has(destination)) throw new Error(`${destination} already has a handler`);
    this.#senders.set(destination, handler);
  }

  /** The user's role in the room (the briefly cached membership), null for a stranger. */
  roleOf(roomId: number, userId: string): Promise<RoomRole | null> {
    return this.#access.roleOf(roomId, userId);
  }

  /** Sends a room event to its subscribers on every instance (this one's at the end of the turn). */
  publishEvent(event: RoomEvent): void {
    this.#fanOut.publishEvent(event);
  }

  /**
   * Queues a room event for this instance's subscribers, once per event id, written at the end of the current
   * turn together with the others of that turn (see {@link Delivery}); an event on an intercepted topic goes
   * to its interceptor instead (see {@link intercept}).
   */
  deliverEvent(event: RoomEvent): void {
    if (!this.#deliveredEvents.add(event.id)) return;
    this.#greetings.heard(event.destination);
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

  /** Queues a room event for this instance's subscribers only (no fan-out, no interception). */
  deliverLocally(event: RoomEvent): void {
    this.#delivery.enqueueEvent(event);
  }

  /** Tells `outage` when the fan-out goes away and comes back (the chat re-reads what was stored meanwhile). */
  onOutage(outage: Outage): void {
    this.#outages.add(outage);
  }

  /** The rooms with subscribers here. */
  roomIds(): number[] {
    return this.#subscriptions.roomIds();
  }

  /** The fan-out lost its transport: what other instances publish from now on may not arrive. */
  suspended(): void {
    this.#suspended = true;
    for (const outage of this.#outages) outage.suspended();
  }

  /** The fan-out is back: the modules catch up on what they may have missed, and memberships are read again. */
  resumed(): void {
    for (const outage of this.#outages) outage.resumed();
    if (!this.#suspended) return;
    this.#suspended = false;
    // News of ended memberships may have been lost with the transport too.
    void this.#watch.recheck('all');
  }

  /**
   * Memberships may have ended (a class deleted, an enrolment ended, a user withdrew; `app.events` tells it
   * once stored): the subscribers in scope here and on every other instance are checked against the database.
   */
  membershipsEnded(scope: MembershipScope): void {
    this.#fanOut.announce(scope);
    void this.#watch.recheck(scope);
  }

  /** Another instance announced that memberships may have ended. */
  recheckMemberships(scope: MembershipScope): void {
    void this.#watch.recheck(scope);
  }

  /** Number of live subscriptions (for the metrics, tests and the benchmark). */
  get subscriptionCount(): number {
    return this.#subscriptions.size;
  }

  /** Stops the fan-out and the membership checks; sessions are closed by their transport. */
  close(): Promise<void> {
    this.#watch.close();
    return this.#fanOut.close();
  }
}
