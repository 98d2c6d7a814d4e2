import {
  CHAT_SEND_DESTINATION,
  CHAT_TOPIC_PREFIX,
  ChatSendSchema,
  MAX_CHAT_LENGTH,
  type ChatMessage,
  type ChatRefusalCode,
} from '@sea/contract/chat';
import { MAX_ID } from '@sea/contract/ids';
import type {
  ChatAccess,
  FanOut,
  FanOutTarget,
  MembershipScope,
  MessageLog,
  SendLimiter,
} from './chat-ports.ts';
import { RecentIds } from './recent-ids.ts';
import { encodeFrame, stompFrame } from './stomp-frame.ts';
import { TokenBuckets, type TokenBucketOptions } from './token-buckets.ts';

/** The broker's view of one STOMP session. */
export interface ChatSubscriber {
  readonly userId: string;
  readonly version: string;
  readonly open: boolean;
  /** Sends an encoded MESSAGE frame; the session protects itself against a subscriber that cannot keep up. */
  sendBytes(bytes: Uint8Array): void;
  /** Ends the session with an ERROR frame carrying `message` (a failure, or a membership that ended). */
  abort(message: string): void;
}

/** What became of a SUBSCRIBE or SEND. `fatal` ends the session with an ERROR frame. */
export type ChatOutcome =
  | { type: 'ok' }
  | { type: 'refused'; code: ChatRefusalCode; message: string }
  | { type: 'fatal'; message: string };

export interface ChatBrokerOptions {
  /** Who may connect, subscribe and write. */
  access: ChatAccess;
  /** Where messages are stored and re-read after a fan-out outage. */
  messages: MessageLog;
  /** Builds the fan-out once the broker exists, so the fan-out can call back into it. */
  fanOut: (target: FanOutTarget) => FanOut;
  /** The limit of memory buckets made here, unless `limiter` is given. */
  rateLimit?: TokenBucketOptions;
  /** Where the per-user limit is kept (Redis-shared buckets with several instances). */
  limiter?: SendLimiter;
  maxSubscriptionsPerSession?: number;
  log?: (level: 'warn' | 'error', message: string, error?: unknown) => void;
  now?: () => number;
  /** How long before the fan-out went away the catch-up starts reading (see {@link ChatBroker.resumed}). */
  catchUpMarginMs?: number;
  /** Pause before the catch-up is tried again when the database failed it; doubled on each try. */
  catchUpRetryMs?: number;
  /**
   * How often every subscription's membership is read again (0: never), the backstop for an ended membership
   * whose news did not arrive (Redis away, a change made outside this server).
   */
  membershipCheckMs?: number;
}

/** Ten messages at once, then two a second: more than anyone types, far less than a script sends. */
export const DEFAULT_CHAT_RATE_LIMIT: TokenBucketOptions = { capacity: 10, refillPerSecond: 2 };

/** A message is stored, then published within milliseconds; a minute also covers clocks a little apart. */
const DEFAULT_CATCH_UP_MARGIN_MS = 60_000;
const CATCH_UP_PAGE = 500;
const CATCH_UP_TRIES = 5;
const DEFAULT_MEMBERSHIP_CHECK_MS = 60_000;
const NOT_A_MEMBER = 'not a member of this class';

interface Subscription {
  subscriber: ChatSubscriber;
  id: string;
  classId: number;
}

const OK: ChatOutcome = { type: 'ok' };

/**
 * The chat domain behind the STOMP sessions: who may subscribe to and write in a class, the limits on writing,
 * and delivery. A message is stored first and only then handed to the fan-out, so whatever any subscriber saw
 * is also in the history.
 */
export class ChatBroker implements FanOutTarget {
  readonly #access: ChatAccess;
  readonly #messages: MessageLog;
  readonly #fanOut: FanOut;
  readonly #limiter: SendLimiter;
  readonly #maxSubscriptions: number;
  readonly #log: NonNullable<ChatBrokerOptions['log']>;
  readonly #byClass = new Map<number, Set<Subscription>>();
  readonly #bySubscriber = new Map<ChatSubscriber, Map<string, Subscription>>();
  readonly #delivered = new RecentIds(50_000);
  readonly #now: () => number;
  readonly #catchUpMarginMs: number;
  readonly #catchUpRetryMs: number;
  /** When the fan-out went away; null while it is there. */
  #suspendedAt: number | null = null;
  readonly #membershipTimer: ReturnType<typeof setInterval> | null;
  #checkingAll = false;
  /** Messages delivered in this turn of the event loop, written together at its end. */
  #outbox: ChatMessage[] = [];

  constructor(options: ChatBrokerOptions) {
    this.#access = options.access;
    this.#messages = options.messages;
    this.#limiter =
      options.limiter ?? new TokenBuckets(options.rateLimit ?? DEFAULT_CHAT_RATE_LIMIT, options.now);
    this.#maxSubscriptions = options.maxSubscriptionsPerSession ?? 16;
    this.#log = options.log ?? (() => undefined);
    this.#now = options.now ?? Date.now;
    this.#catchUpMarginMs = options.catchUpMarginMs ?? DEFAULT_CATCH_UP_MARGIN_MS;
    this.#catchUpRetryMs = options.catchUpRetryMs ?? 1_000;
    this.#fanOut = options.fanOut(this);
    const every = options.membershipCheckMs ?? DEFAULT_MEMBERSHIP_CHECK_MS;
    this.#membershipTimer = every > 0 ? setInterval(() => void this.#recheck('all'), every) : null;
    // The check must not keep a process alive that is otherwise shutting down.
    this.#membershipTimer?.unref?.();
  }

  /** Identifies the user of a CONNECT's bearer token; null refuses the connection. */
  authenticate(token: string): Promise<string | null> {
    return this.#access.authenticate(token);
  }

  /** Adds a subscription after checking that the destination is a class chat the user belongs to. */
  async subscribe(subscriber: ChatSubscriber, id: string, destination: string): Promise<ChatOutcome> {
    const classId = parseTopic(destination);
    if (classId === null) return { type: 'fatal', message: 'unknown destination' };
    const own = this.#bySubscriber.get(subscriber) ?? new Map<string, Subscription>();
    if (own.has(id)) return { type: 'fatal', message: 'subscription id already in use' };
    if (own.size >= this.#maxSubscriptions) return { type: 'fatal', message: 'too many subscriptions' };
    if (!(await this.#access.isMember(classId, subscriber.userId))) {
      return { type: 'fatal', message: NOT_A_MEMBER };
    }
    // The session may have closed, or subscribed the same id, while the membership check was running.
    if (!subscriber.open) return OK;
    if (own.has(id)) return { type: 'fatal', message: 'subscription id already in use' };
    const subscription: Subscription = { subscriber, id, classId };
    own.set(id, subscription);
    this.#bySubscriber.set(subscriber, own);
    const set = this.#byClass.get(classId) ?? new Set<Subscription>();
    set.add(subscription);
    this.#byClass.set(classId, set);
    return OK;
  }

  /** True when the session has a class subscription with this id. */
  hasSubscription(subscriber: ChatSubscriber, id: string): boolean {
    return this.#bySubscriber.get(subscriber)?.has(id) ?? false;
  }

  /** Removes a subscription; unknown ids are ignored (the client may race its own UNSUBSCRIBE). */
  unsubscribe(subscriber: ChatSubscriber, id: string): void {
    const own = this.#bySubscriber.get(subscriber);
    const subscription = own?.get(id);
    if (!own || !subscription) return;
    own.delete(id);
    if (own.size === 0) this.#bySubscriber.delete(subscriber);
    const set = this.#byClass.get(subscription.classId);
    set?.delete(subscription);
    if (set?.size === 0) this.#byClass.delete(subscription.classId);
  }

  /** Drops every subscription of a closed session. */
  disconnected(subscriber: ChatSubscriber): void {
    for (const id of [...(this.#bySubscriber.get(subscriber)?.keys() ?? [])])
      this.unsubscribe(subscriber, id);
  }

  /** Handles a SEND: limits, membership, then store and publish. */
  async send(subscriber: ChatSubscriber, destination: string, body: string): Promise<ChatOutcome> {
    if (destination !== CHAT_SEND_DESTINATION) return { type: 'fatal', message: 'unknown destination' };
    if (!(await this.#limiter.take(subscriber.userId))) {
      return refuse('rate-limited', '메시지를 너무 빨리 보내고 있어요. 잠시 후 다시 보내 주세요.');
    }
    const parsed = ChatSendSchema.safeParse(parseJson(body));
    if (!parsed.success) {
      return refuse('bad-request', '메시지 형식이 올바르지 않아요.');
    }
    // PostgreSQL text cannot hold NUL, and lone surrogates cannot be stored as UTF-8.
    const content = parsed.data.content.replaceAll('\u0000', '').toWellFormed().trim();
    if (content.length === 0) return refuse('blank', '빈 메시지는 보낼 수 없어요.');
    if (codePoints(content) > MAX_CHAT_LENGTH) {
      return refuse('too-long', `메시지는 ${MAX_CHAT_LENGTH.toLocaleString('ko-KR')}자까지 보낼 수 있어요.`);
    }
    const classId = parsed.data.roomId;
    if (!(await this.#access.isMember(classId, subscriber.userId))) {
      return { type: 'fatal', message: NOT_A_MEMBER };
    }
    let message: ChatMessage;
    try {
      message = await this.#messages.save({ classId, userId: subscriber.userId, content });
    } catch (error) {
      this.#log('error', 'chat message could not be stored', error);
      return refuse('unavailable', '메시지를 저장하지 못했어요. 잠시 후 다시 보내 주세요.');
    }
    this.#fanOut.publish(message);
    return OK;
  }

  /**
   * Hands a stored message to this instance's subscribers of its class, once per message id. Messages are
   * written at the end of the current turn of the event loop, all that arrived in that turn together: under
   * load a subscriber then gets one socket write for several messages instead of one write each.
   */
  deliver(message: ChatMessage): void {
    if (!this.#delivered.add(message.id)) return;
    if (!this.#byClass.has(message.roomId)) return;
    this.#outbox.push(message);
    if (this.#outbox.length === 1) setImmediate(() => this.#flush());
  }

  /** Runs outside any caller (in setImmediate): nothing may escape it, and one subscriber cannot stop the rest. */
  #flush(): void {
    const batch = this.#outbox;
    this.#outbox = [];
    const byClass = new Map<number, ChatMessage[]>();
    for (const message of batch) {
      const list = byClass.get(message.roomId);
      if (list) list.push(message);
      else byClass.set(message.roomId, [message]);
    }
    for (const [classId, messages] of byClass) {
      const set = this.#byClass.get(classId);
      if (!set) continue;
      const bodies = messages.map((message) => ({
        id: message.id,
        body: encoder.encode(JSON.stringify(message)),
      }));
      // Most clients name their first subscription alike (stompjs: "sub-0"), so one encoding serves nearly all.
      const encoded = new Map<string, Uint8Array>();
      // A subscription removed during the loop (a slow subscriber closed) is skipped by the Set's iterator.
      for (const { subscriber, id } of set) {
        try {
          const key = `${subscriber.version}\n${id}`;
          let bytes = encoded.get(key);
          if (!bytes) {
            bytes = concat(
              bodies.map(({ id: messageId, body }) =>
                messageFrame(classId, messageId, id, body, subscriber.version),
              ),
            );
            encoded.set(key, bytes);
          }
          subscriber.sendBytes(bytes);
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

  /** The fan-out lost its transport: remember when, so the catch-up knows where to start. */
  suspended(): void {
    this.#suspendedAt ??= this.#now();
  }

  /**
   * The fan-out is back: re-read from the database what may have been missed, for every class with subscribers
   * here, and deliver what this instance has not delivered yet (repeats are dropped by id). Where to start is
   * not "after the highest id delivered here": ids are taken when a message is stored, so a message of another
   * instance with a lower id may still have been on its way when the transport went away. The catch-up starts
   * after the last message stored a margin before the transport went away, and reads every page from there.
   */
  resumed(): void {
    const suspendedAt = this.#suspendedAt;
    this.#suspendedAt = null;
    if (suspendedAt === null) return;
    void this.#catchUp(new Date(suspendedAt - this.#catchUpMarginMs));
    // News of ended memberships may have been lost with the transport too.
    void this.#recheck('all');
  }

  async #catchUp(since: Date): Promise<void> {
    let floor: number | null = null;
    for (let tries = 1; floor === null; tries += 1) {
      try {
        floor = await this.#messages.lastIdBefore(since);
      } catch (error) {
        if (tries === CATCH_UP_TRIES) {
          this.#log('error', 'chat catch-up after a fan-out outage failed; messages may be missing', error);
          return;
        }
        this.#log('warn', 'chat catch-up failed; trying again', error);
        await new Promise((resolve) => setTimeout(resolve, this.#catchUpRetryMs * 2 ** (tries - 1)));
      }
    }
    for (const classId of [...this.#byClass.keys()]) {
      try {
        await this.#catchUpClass(classId, floor);
      } catch (error) {
        this.#log('error', `chat catch-up of class ${classId} failed; messages may be missing`, error);
      }
    }
  }

  async #catchUpClass(classId: number, floor: number): Promise<void> {
    for (let after = floor; ;) {
      const page = await this.#messages.listAfter(classId, after, CATCH_UP_PAGE);
      for (const message of page) this.deliver(message);
      const last = page.at(-1);
      if (page.length < CATCH_UP_PAGE || last === undefined) return;
      after = last.id;
    }
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

  recheckMemberships(scope: MembershipScope): void {
    void this.#recheck(scope);
  }

  #membershipsEnded(scope: MembershipScope): void {
    this.#fanOut.announce(scope);
    void this.#recheck(scope);
  }

  /**
   * Reads the memberships of the subscriptions in scope afresh and ends the session of every subscriber who
   * is no longer the class's teacher or student (ERROR, as a SUBSCRIBE would have been answered). The news
   * only says where to look: the database decides, so a wrong or repeated announcement closes nothing.
   */
  async #recheck(scope: MembershipScope): Promise<void> {
    if (scope === 'all') {
      // Periodic checks never pile up behind a slow database.
      if (this.#checkingAll) return;
      this.#checkingAll = true;
    }
    try {
      this.#access.forgetMemberships();
      const classIds = scope === 'all' ? [...this.#byClass.keys()] : [scope.classId];
      for (const classId of classIds) {
        const subscriptions = this.#byClass.get(classId);
        if (!subscriptions) continue;
        const userIds = [...new Set([...subscriptions].map(({ subscriber }) => subscriber.userId))];
        let members: Set<string>;
        try {
          members = await this.#access.stillMembers(classId, userIds);
        } catch (error) {
          this.#log('warn', `chat membership check of class ${classId} failed`, error);
          continue;
        }
        for (const { subscriber } of [...(this.#byClass.get(classId) ?? [])]) {
          if (!members.has(subscriber.userId) && userIds.includes(subscriber.userId)) {
            subscriber.abort(NOT_A_MEMBER);
          }
        }
      }
    } finally {
      if (scope === 'all') this.#checkingAll = false;
    }
  }

  /** Number of live subscriptions (for tests and the benchmark). */
  get subscriptionCount(): number {
    let count = 0;
    for (const set of this.#byClass.values()) count += set.size;
    return count;
  }

  /** Stops the fan-out and the membership checks; sessions are closed by their transport. */
  close(): Promise<void> {
    if (this.#membershipTimer) clearInterval(this.#membershipTimer);
    return this.#fanOut.close();
  }
}

const encoder = new TextEncoder();

function messageFrame(
  classId: number,
  messageId: number,
  subscription: string,
  body: Uint8Array,
  version: string,
) {
  const headers = {
    destination: `${CHAT_TOPIC_PREFIX}${classId}`,
    'message-id': String(messageId),
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

function refuse(code: ChatRefusalCode, message: string): ChatOutcome {
  return { type: 'refused', code, message };
}

function parseTopic(destination: string): number | null {
  if (!destination.startsWith(CHAT_TOPIC_PREFIX)) return null;
  const rest = destination.slice(CHAT_TOPIC_PREFIX.length);
  if (!/^[1-9]\d{0,9}$/.test(rest)) return null;
  const classId = Number(rest);
  return classId <= MAX_ID ? classId : null;
}

function parseJson(text: string): unknown {
  try {
    return JSON.parse(text);
  } catch {
    return null;
  }
}

function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}
