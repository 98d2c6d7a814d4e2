import { Client, type IMessage } from '@stomp/stompjs';
import {
  CHAT_ERROR_DESTINATION,
  CHAT_HEARTBEAT_MS,
  CHAT_HISTORY_MAX,
  CHAT_RECONNECT_DELAY_MS,
  CHAT_RECONNECT_HEADER,
  CHAT_SEND_DESTINATION,
  chatTopic,
  type ChatMessage,
  type ChatRefusal,
} from '@sea/contract/chat';
import { moderationTopic, type ModerationEvent } from '@sea/contract/classroom';
import { Emitter } from '../../lib/emitter.ts';
import { MAX_KEPT_MESSAGES, mergeMessages } from './merge-messages.ts';

/** Where a chat connection stands; the panel shows it and enables sending only while `connected`. */
export type ChatConnectionState = 'connecting' | 'connected' | 'disconnected' | 'failed';

/** Events of a {@link ChatConnection}, by name, with the value each carries. */
export type ChatConnectionEvents = {
  /** The state changed. */
  stateChanged: ChatConnectionState;
  /** The message list changed: history arrived, a message came in. Carries the whole list, oldest first. */
  messagesChanged: readonly ChatMessage[];
  /** The server refused one of this client's messages (too long, too fast...); the connection stays. */
  refused: ChatRefusal;
  /** The teacher deleted a message (it is already gone from `messages`), muted someone or set slow mode. */
  moderated: ModerationEvent;
  /**
   * The server confirmed the subscription of a {@link ChatConnection.watch}ed destination on this connection:
   * state read from now on misses none of its news. Carries the destination.
   */
  watching: string;
};

/** The part of a STOMP client the connection drives; tests inject a fake one. */
export type StompLike = {
  activate(): void;
  deactivate(): Promise<void>;
  /**
   * Subscribes; resolves on the server's RECEIPT, that is once the subscription is in effect (the server
   * sends it only then). Never resolves if the connection is lost first.
   */
  subscribe(destination: string, onBody: (body: string) => void): Promise<void>;
  publish(destination: string, body: string): void;
};

/** What a STOMP client factory is given: where to connect, with which token, and whom to tell what. */
export type StompClientConfig = {
  url: string;
  token: string | null;
  heartbeatMs: number;
  onConnected: () => void;
  /**
   * The server answered an ERROR frame; it closes the socket next. `reconnectWithinMs` is the value of its
   * {@link CHAT_RECONNECT_HEADER} (the server is stopping: reconnect within that), null for a refusal (token,
   * membership).
   */
  onRefused: (message: string, reconnectWithinMs: number | null) => void;
  onSocketClosed: () => void;
};

export type StompFactory = (config: StompClientConfig) => StompLike;

export type ChatConnectionOptions = {
  classId: number;
  url: string;
  /** Read at every (re)connect, so a refreshed token is used. */
  getToken: () => string | null;
  /** The latest page of history, or with `after` the messages after that id. */
  fetchHistory: (classId: number, after?: number) => Promise<ChatMessage[]>;
  /**
   * Called once when the server refuses the token (it expired during a long class); true when a fresh token
   * is now stored, and the connection then tries again at once.
   */
  renewToken?: () => Promise<boolean>;
  createClient?: StompFactory;
  reconnectDelayMs?: number;
  heartbeatMs?: number;
  /** Wait before a failed history read is tried again; doubled for each further try. */
  historyRetryMs?: number;
};

/** Pages of catch-up read after a reconnect at most (each up to the history route's maximum). */
const MAX_CATCH_UP_PAGES = 20;
/** Reads of one history page before giving up on this connection. */
const HISTORY_TRIES = 4;
const HISTORY_RETRY_MS = 1_000;

let receiptCount = 0;

/** The real client: @stomp/stompjs, with its own reconnecting turned off (this class reconnects). */
export const createStompClient: StompFactory = (config) => {
  const client = new Client({
    brokerURL: config.url,
    connectHeaders: config.token === null ? {} : { Authorization: `Bearer ${config.token}` },
    heartbeatIncoming: config.heartbeatMs,
    heartbeatOutgoing: config.heartbeatMs,
    reconnectDelay: 0,
    onConnect: () => config.onConnected(),
    onStompError: (frame) =>
      config.onRefused(
        frame.headers.message ?? frame.body,
        reconnectWithin(frame.headers[CHAT_RECONNECT_HEADER]),
      ),
    onWebSocketClose: () => config.onSocketClosed(),
  });
  return {
    activate: () => client.activate(),
    deactivate: () => client.deactivate(),
    subscribe: (destination, onBody) =>
      new Promise<void>((resolve) => {
        const receipt = `chat-subscribed-${++receiptCount}`;
        client.watchForReceipt(receipt, () => resolve());
        client.subscribe(destination, (message: IMessage) => onBody(message.body), { receipt });
      }),
    publish: (destination, body) => client.publish({ destination, body }),
  };
};

/**
 * The live chat of one class, without any UI framework. It connects at once, subscribes, and reads the history
 * once the server confirmed the subscription (so a message stored meanwhile is in the history or arrives live,
 * never in neither). After a lost connection it waits 5 s, reconnects and re-reads from the oldest message it
 * holds (`?after=<oldest id - 1>`, page by page): what came meanwhile is merged by id and what the teacher
 * deleted meanwhile is dropped, so after a network blip the list is the server's, neither losing nor repeating
 * nor keeping a deleted message. A failed read is
 * tried again a few times; a catch-up that still fails ends the connection, and the next one reads from the same
 * point again. When the server refuses the token (it expired), the token is renewed once and the connection
 * tried again. A stopping server's ERROR ({@link CHAT_RECONNECT_HEADER}) is not a refusal: the connection
 * reconnects after a random wait up to the time the server named, and catches up as after any loss. Any other
 * ERROR (membership refused) ends in `failed` without retrying. {@link close} is idempotent and stops
 * everything.
 */
export class ChatConnection {
  readonly #options: Required<ChatConnectionOptions>;
  readonly #events = new Emitter<ChatConnectionEvents>();
  #state: ChatConnectionState = 'connecting';
  #messages: readonly ChatMessage[] = [];
  #client: StompLike | null = null;
  /** Bumped on every new socket and on close: callbacks of an older socket are ignored. */
  #generation = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** True once a history read succeeded: from then on a reconnect re-reads from the oldest message held. */
  #historyRead = false;
  /** The highest message id ever held: where a re-read starts when no message is held any more. */
  #lastSeen = 0;
  /** Messages deleted live: a re-read answered before the deletion must not bring them back. */
  readonly #deleted = new Set<number>();
  #retryTimer: ReturnType<typeof setTimeout> | null = null;
  #closed = false;
  /** Set after a token renewal until the next successful CONNECT, so a refused token is renewed only once. */
  #renewed = false;
  /** Listeners of other room topics, by destination ({@link watch}). */
  readonly #watchers = new Map<string, Set<(body: unknown) => void>>();
  /** The watched destinations whose subscription the server confirmed on the current connection. */
  #watching = new Set<string>();

  constructor(options: ChatConnectionOptions) {
    this.#options = {
      createClient: createStompClient,
      renewToken: async () => false,
      reconnectDelayMs: CHAT_RECONNECT_DELAY_MS,
      heartbeatMs: CHAT_HEARTBEAT_MS,
      historyRetryMs: HISTORY_RETRY_MS,
      ...options,
    };
    this.#open();
  }

  /** The current state. */
  get state(): ChatConnectionState {
    return this.#state;
  }

  /** Messages so far, oldest first, without repeats. */
  get messages(): readonly ChatMessage[] {
    return this.#messages;
  }

  /** Listens to an event; returns the function that stops listening. */
  on<K extends keyof ChatConnectionEvents>(
    event: K,
    listener: (value: ChatConnectionEvents[K]) => void,
  ): () => void {
    return this.#events.on(event, listener);
  }

  /**
   * Listens to another room topic of the same connection (questions, hands...): subscribed now if connected,
   * and again on every reconnect. Returns the function that stops listening.
   */
  watch(destination: string, listener: (body: unknown) => void): () => void {
    let listeners = this.#watchers.get(destination);
    if (!listeners) {
      listeners = new Set();
      this.#watchers.set(destination, listeners);
      if (this.#state === 'connected' && this.#client) this.#subscribeWatched(this.#client, destination);
    }
    listeners.add(listener);
    const own = listeners;
    return () => {
      own.delete(listener);
    };
  }

  /** True when a watched destination's subscription is in effect on the current connection. */
  isWatching(destination: string): boolean {
    return this.#watching.has(destination);
  }

  /** Sends a room action (`/app/questions`...); false (nothing sent) while not connected. */
  publish(destination: string, body: object): boolean {
    if (this.#state !== 'connected' || this.#client === null) return false;
    this.#client.publish(destination, JSON.stringify({ roomId: this.#options.classId, ...body }));
    return true;
  }

  /** Sends a message; false (nothing sent) while not connected or when the text is blank. */
  send(content: string): boolean {
    if (this.#state !== 'connected' || this.#client === null || content.trim() === '') return false;
    this.#client.publish(CHAT_SEND_DESTINATION, JSON.stringify({ roomId: this.#options.classId, content }));
    return true;
  }

  /** Disconnects for good (the page is left). Safe to call any number of times. */
  close(): void {
    if (this.#closed) return;
    this.#closed = true;
    this.#generation += 1;
    if (this.#reconnectTimer) clearTimeout(this.#reconnectTimer);
    this.#reconnectTimer = null;
    this.#clearRetry();
    void this.#client?.deactivate();
    this.#client = null;
    this.#setState('disconnected');
  }

  #open(): void {
    const generation = ++this.#generation;
    this.#watching = new Set();
    const current = (): boolean => generation === this.#generation;
    this.#setState('connecting');
    const client = this.#options.createClient({
      url: this.#options.url,
      token: this.#options.getToken(),
      heartbeatMs: this.#options.heartbeatMs,
      onConnected: () => {
        if (current()) this.#connected(client, generation);
      },
      onRefused: (message, reconnectWithinMs) => {
        if (!current()) return;
        if (reconnectWithinMs !== null) {
          console.info('chat server stopping; reconnecting:', message);
          void client.deactivate();
          // Spread over the hint so that a room does not come back at once; never slower than after an outage.
          this.#lost(Math.random() * Math.min(reconnectWithinMs, this.#options.reconnectDelayMs));
          return;
        }
        console.warn('chat refused by the server:', message);
        this.#generation += 1;
        void client.deactivate();
        this.#client = null;
        if (/token/.test(message) && !this.#renewed) this.#renewAndRetry();
        else this.#setState('failed');
      },
      onSocketClosed: () => {
        if (current()) this.#lost();
      },
    });
    this.#client = client;
    client.activate();
  }

  #renewAndRetry(): void {
    this.#renewed = true;
    this.#setState('disconnected');
    const generation = this.#generation;
    this.#options.renewToken().then(
      (renewed) => {
        if (generation !== this.#generation || this.#closed) return;
        if (renewed) this.#open();
        else this.#setState('failed');
      },
      () => {
        if (generation === this.#generation && !this.#closed) this.#setState('failed');
      },
    );
  }

  #connected(client: StompLike, generation: number): void {
    const { classId } = this.#options;
    this.#renewed = false;
    // What is held now came from earlier connections: deletions of it may have been missed meanwhile.
    const held = new Set(this.#messages.map((message) => message.id));
    const subscribed = Promise.all([
      client.subscribe(CHAT_ERROR_DESTINATION, (body) => {
        const refusal = parseJson<ChatRefusal>(body);
        if (refusal) this.#events.emit('refused', refusal);
      }),
      client.subscribe(chatTopic(classId), (body) => {
        const message = parseJson<ChatMessage>(body);
        if (message) this.#merge([message]);
      }),
      client.subscribe(moderationTopic(classId), (body) => {
        const event = parseJson<ModerationEvent>(body);
        if (event) this.#moderated(event);
      }),
    ]);
    for (const destination of this.#watchers.keys()) this.#subscribeWatched(client, destination);
    this.#setState('connected');
    // Read only once the subscription is in effect: a message stored (or deleted) before that is in the
    // history (or gone from it), one stored after it arrives live (one in between comes both ways, merged once).
    const reread = this.#historyRead;
    void subscribed.then(async () => {
      if (generation !== this.#generation) return;
      try {
        await (reread ? this.#reread(held, generation) : this.#firstRead(held, generation));
        if (generation === this.#generation) this.#historyRead = true;
      } catch (error) {
        if (generation !== this.#generation) return;
        console.warn('chat history could not be loaded', error);
        // Without the re-read the list would keep a gap, or deleted messages: start over, reading from the
        // same point again. The first page of a fresh panel is only logged, as the product does; live messages
        // keep flowing.
        if (reread) {
          void client.deactivate();
          this.#lost();
        }
      }
    });
  }

  /**
   * The latest page, as a fresh panel reads it. Messages held from an earlier connection whose first read
   * failed are replaced by it, as a page reload would.
   */
  async #firstRead(held: ReadonlySet<number>, generation: number): Promise<void> {
    const { classId } = this.#options;
    const page = await this.#read(() => this.#options.fetchHistory(classId), generation);
    if (generation !== this.#generation) return;
    this.#replace(page, held, () => true);
  }

  /**
   * After a reconnect: the server's truth from the oldest message held on, page by page. A held message the
   * server no longer has was deleted while this client was away, and is dropped; what came meanwhile is added.
   */
  async #reread(held: ReadonlySet<number>, generation: number): Promise<void> {
    const { classId } = this.#options;
    const oldest = this.#messages[0]?.id;
    let from = oldest === undefined ? this.#lastSeen : oldest - 1;
    const read: ChatMessage[] = [];
    for (let pages = 0; pages < MAX_CATCH_UP_PAGES; pages += 1) {
      const since = from;
      const page = await this.#read(() => this.#options.fetchHistory(classId, since), generation);
      if (generation !== this.#generation) return;
      read.push(...page);
      const last = page.at(-1);
      if (page.length < CHAT_HISTORY_MAX || last === undefined) {
        this.#replace(read, held, () => true);
        return;
      }
      from = last.id;
    }
    // Gave up after the page limit: only what the pages covered is known.
    const covered = read.at(-1)?.id ?? from;
    this.#replace(read, held, (id) => id <= covered);
  }

  /** Merges what was read, dropping the held messages (within `covered`) the server no longer has. */
  #replace(read: readonly ChatMessage[], held: ReadonlySet<number>, covered: (id: number) => boolean): void {
    const answered = new Set(read.map((message) => message.id));
    const kept = this.#messages.filter(
      (message) => !held.has(message.id) || answered.has(message.id) || !covered(message.id),
    );
    const fresh = read.filter((message) => !this.#deleted.has(message.id));
    const merged = mergeMessages(kept, fresh);
    if (merged === this.#messages) return;
    this.#messages = merged;
    this.#lastSeen = Math.max(this.#lastSeen, merged.at(-1)?.id ?? 0);
    this.#events.emit('messagesChanged', merged);
  }

  /** One history read, tried again after 1, 2 and 4 s; the last failure is thrown. */
  async #read(fetch: () => Promise<ChatMessage[]>, generation: number): Promise<ChatMessage[]> {
    for (let tries = 1; ; tries += 1) {
      try {
        return await fetch();
      } catch (error) {
        if (tries >= HISTORY_TRIES || generation !== this.#generation) throw error;
        console.warn('chat history read failed; trying again', error);
        await new Promise<void>((resolve) => {
          this.#retryTimer = setTimeout(resolve, this.#options.historyRetryMs * 2 ** (tries - 1));
        });
        this.#retryTimer = null;
        if (generation !== this.#generation) return [];
      }
    }
  }

  #clearRetry(): void {
    if (this.#retryTimer) clearTimeout(this.#retryTimer);
    this.#retryTimer = null;
  }

  /** The connection is gone: reconnect after `delayMs` (the usual reconnect delay unless told otherwise). */
  #lost(delayMs = this.#options.reconnectDelayMs): void {
    this.#generation += 1;
    this.#watching = new Set();
    this.#client = null;
    this.#clearRetry();
    this.#setState('disconnected');
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = null;
      if (!this.#closed) this.#open();
    }, delayMs);
  }

  #subscribeWatched(client: StompLike, destination: string): void {
    const generation = this.#generation;
    void client
      .subscribe(destination, (body) => {
        const value = parseJson<unknown>(body);
        if (value === null) return;
        for (const listener of this.#watchers.get(destination) ?? []) listener(value);
      })
      .then(() => {
        if (generation !== this.#generation) return;
        this.#watching.add(destination);
        this.#events.emit('watching', destination);
      });
  }

  #moderated(event: ModerationEvent): void {
    if (event.type === 'messageDeleted') {
      // Deletions are rare: the set stays small for a page's life (bounded all the same).
      if (this.#deleted.size >= MAX_KEPT_MESSAGES) this.#deleted.clear();
      this.#deleted.add(event.messageId);
      const kept = this.#messages.filter((message) => message.id !== event.messageId);
      if (kept.length !== this.#messages.length) {
        this.#messages = kept;
        this.#events.emit('messagesChanged', kept);
      }
    }
    this.#events.emit('moderated', event);
  }

  #merge(incoming: readonly ChatMessage[]): void {
    const merged = mergeMessages(this.#messages, incoming);
    if (merged === this.#messages) return;
    this.#messages = merged;
    this.#lastSeen = Math.max(this.#lastSeen, merged.at(-1)?.id ?? 0);
    this.#events.emit('messagesChanged', merged);
  }

  #setState(state: ChatConnectionState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.#events.emit('stateChanged', state);
  }
}

/** A stopping server's reconnect hint: a number of milliseconds, else null (the ERROR is a refusal). */
function reconnectWithin(header: string | undefined): number | null {
  if (header === undefined) return null;
  const ms = Number(header);
  return Number.isFinite(ms) && ms >= 0 ? ms : null;
}

function parseJson<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    console.warn('chat: ignored a message that is not JSON');
    return null;
  }
}
