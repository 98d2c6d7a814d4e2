import type { RoomRole } from '@sea/contract/chat';
import type { StompSubscriber } from '../stomp/stomp-ports.ts';
import type { RoomTopic } from './room-topics.ts';

/** One SUBSCRIBE of one session to one room topic. */
export interface Subscription {
  readonly subscriber: StompSubscriber;
  readonly id: string;
  readonly topic: RoomTopic;
  /** The subscriber's role in the room when subscribing: which view of a room event it reads. */
  readonly role: RoomRole;
}

/**
 * The subscriptions of this instance's sessions, indexed three ways: by session and subscription id (SUBSCRIBE,
 * UNSUBSCRIBE, disconnect), by destination (delivery) and by room (catch-up, membership checks). It knows no
 * kind of topic: every room topic is kept alike.
 */
export class Subscriptions {
  readonly #bySubscriber = new Map<StompSubscriber, Map<string, Subscription>>();
  readonly #byDestination = new Map<string, Set<Subscription>>();
  readonly #byRoom = new Map<number, Set<Subscription>>();

  /** True when the session has a subscription with this id. */
  has(subscriber: StompSubscriber, id: string): boolean {
    return this.#bySubscriber.get(subscriber)?.has(id) ?? false;
  }

  /** How many subscriptions the session has. */
  countOf(subscriber: StompSubscriber): number {
    return this.#bySubscriber.get(subscriber)?.size ?? 0;
  }

  /** Adds a subscription; the caller has checked that the id is free. */
  add(subscriber: StompSubscriber, id: string, topic: RoomTopic, role: RoomRole): Subscription {
    const subscription: Subscription = { subscriber, id, topic, role };
    const own = this.#bySubscriber.get(subscriber) ?? new Map<string, Subscription>();
    own.set(id, subscription);
    this.#bySubscriber.set(subscriber, own);
    addTo(this.#byDestination, topic.destination, subscription);
    addTo(this.#byRoom, topic.roomId, subscription);
    return subscription;
  }

  /** Removes a subscription; an unknown id is ignored. */
  remove(subscriber: StompSubscriber, id: string): void {
    const own = this.#bySubscriber.get(subscriber);
    const subscription = own?.get(id);
    if (!own || !subscription) return;
    own.delete(id);
    if (own.size === 0) this.#bySubscriber.delete(subscriber);
    removeFrom(this.#byDestination, subscription.topic.destination, subscription);
    removeFrom(this.#byRoom, subscription.topic.roomId, subscription);
  }

  /** Removes every subscription of a session. */
  removeAll(subscriber: StompSubscriber): void {
    for (const id of [...(this.#bySubscriber.get(subscriber)?.keys() ?? [])]) this.remove(subscriber, id);
  }

  /**
   * The live set of a destination's subscriptions (undefined: none). A subscription removed while the caller
   * iterates is skipped by the Set's iterator.
   */
  of(destination: string): ReadonlySet<Subscription> | undefined {
    return this.#byDestination.get(destination);
  }

  /** The rooms with at least one subscription here. */
  roomIds(): number[] {
    return [...this.#byRoom.keys()];
  }

  /** A copy of the subscriptions to any topic of a room. */
  inRoom(roomId: number): Subscription[] {
    return [...(this.#byRoom.get(roomId) ?? [])];
  }

  /** Number of subscriptions. */
  get size(): number {
    let count = 0;
    for (const set of this.#byDestination.values()) count += set.size;
    return count;
  }
}

function addTo<K>(index: Map<K, Set<Subscription>>, key: K, subscription: Subscription): void {
  const set = index.get(key) ?? new Set<Subscription>();
  set.add(subscription);
  index.set(key, set);
}

function removeFrom<K>(index: Map<K, Set<Subscription>>, key: K, subscription: Subscription): void {
  const set = index.get(key);
  set?.delete(subscription);
  if (set?.size === 0) index.delete(key);
}
