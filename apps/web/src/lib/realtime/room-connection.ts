import {
  CHAT_ERROR_DESTINATION,
  CHAT_HEARTBEAT_MS,
  CHAT_RECONNECT_DELAY_MS,
  CHAT_SEND_DESTINATION,
  chatTopic,
  type ChatMessage,
  type ChatRefusal,
} from '@sea/contract/chat';
import { moderationTopic, type ModerationEvent } from '@sea/contract/classroom';
import { Emitter } from '../emitter.ts';
import { HistoryReader } from './history-reader.ts';
import { MessageLog } from './message-log.ts';
import type { RoomConnectionEvents, RoomConnectionOptions, RoomConnectionState } from './room-types.ts';
import { createStompClient, parseBody, type StompLike } from './stomp-client.ts';

export type { RoomConnectionEvents, RoomConnectionOptions, RoomConnectionState } from './room-types.ts';

const HISTORY_RETRY_MS = 1_000;

/**
 * The realtime connection of one class's room, without any UI framework: the chat, and the other room topics
 * (questions, hands, polls...) through {@link watch}. It connects at once, subscribes, and reads the history
 * once the server confirmed the subscription (so a message stored meanwhile is in the history or arrives live,
 * never in neither). After a lost connection it waits 5 s, reconnects and re-reads from the oldest message it
 * holds (`?after=<oldest id - 1>`, page by page): what came meanwhile is merged by id and what the teacher
 * deleted meanwhile is dropped, so after a network blip the list is the server's, neither losing nor repeating
 * nor keeping a deleted message. A failed read is
 * tried again a few times; a catch-up that still fails ends the connection, and the next one reads from the same
 * point again. When the server refuses the token (it expired), the token is renewed once and the connection
 * tried again. A stopping server's ERROR (with `CHAT_RECONNECT_HEADER`) is not a refusal: the connection
 * reconnects after a random wait up to the time the server named, and catches up as after any loss. Any other
 * ERROR (membership refused) ends in `failed` without retrying. {@link close} is idempotent and stops
 * everything.
 */
export class RoomConnection {
  readonly #options: Required<RoomConnectionOptions>;
  readonly #events = new Emitter<RoomConnectionEvents>();
  #state: RoomConnectionState = 'connecting';
  readonly #log = new MessageLog();
  #client: StompLike | null = null;
  /** Bumped on every new socket and on close: callbacks of an older socket are ignored. */
  #generation = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** True once a history read succeeded: from then on a reconnect re-reads from the oldest message held. */
  #historyRead = false;
  readonly #history: HistoryReader;
  #closed = false;
  /** Set after a token renewal until the next successful CONNECT, so a refused token is renewed only once. */
  #renewed = false;
  /** Listeners of other room topics, by destination ({@link watch}). */
  readonly #watchers = new Map<string, Set<(body: unknown) => void>>();
  /** The watched destinations whose subscription the server confirmed on the current connection. */
  #watching = new Set<string>();

  constructor(options: RoomConnectionOptions) {
    this.#options = {
      createClient: createStompClient,
      renewToken: async () => false,
      reconnectDelayMs: CHAT_RECONNECT_DELAY_MS,
      heartbeatMs: CHAT_HEARTBEAT_MS,
      historyRetryMs: HISTORY_RETRY_MS,
      ...options,
    };
    const { classId, fetchHistory } = this.#options;
    this.#history = new HistoryReader(
      (after) => (after === undefined ? fetchHistory(classId) : fetchHistory(classId, after)),
      this.#options.historyRetryMs,
    );
    this.#open();
  }

  /** The current state. */
  get state(): RoomConnectionState {
    return this.#state;
  }

  /** Messages so far, oldest first, without repeats. */
  get messages(): readonly ChatMessage[] {
    return this.#log.messages;
  }

  /** Listens to an event; returns the function that stops listening. */
  on<K extends keyof RoomConnectionEvents>(
    event: K,
    listener: (value: RoomConnectionEvents[K]) => void,
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
    this.#history.cancel();
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
    const held = this.#log.ids();
    const subscribed = Promise.all([
      client.subscribe(CHAT_ERROR_DESTINATION, (body) => {
        const refusal = parseBody<ChatRefusal>(body);
        if (refusal) this.#events.emit('refused', refusal);
      }),
      client.subscribe(chatTopic(classId), (body) => {
        const message = parseBody<ChatMessage>(body);
        if (message && this.#log.merge([message])) this.#messagesChanged();
      }),
      client.subscribe(moderationTopic(classId), (body) => {
        const event = parseBody<ModerationEvent>(body);
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
    const page = await this.#history.latest(() => generation === this.#generation);
    if (page && this.#log.replace(page, held, () => true)) this.#messagesChanged();
  }

  /**
   * After a reconnect: the server's truth from the oldest message held on, page by page. A held message the
   * server no longer has was deleted while this client was away, and is dropped; what came meanwhile is added.
   */
  async #reread(held: ReadonlySet<number>, generation: number): Promise<void> {
    const caught = await this.#history.catchUp(this.#log.readFrom, () => generation === this.#generation);
    if (caught && this.#log.replace(caught.read, held, caught.covered)) this.#messagesChanged();
  }

  /** The connection is gone: reconnect after `delayMs` (the usual reconnect delay unless told otherwise). */
  #lost(delayMs = this.#options.reconnectDelayMs): void {
    this.#generation += 1;
    this.#watching = new Set();
    this.#client = null;
    this.#history.cancel();
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
        const value = parseBody<unknown>(body);
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
    if (event.type === 'messageDeleted' && this.#log.delete(event.messageId)) this.#messagesChanged();
    this.#events.emit('moderated', event);
  }

  #messagesChanged(): void {
    this.#events.emit('messagesChanged', this.#log.messages);
  }

  #setState(state: RoomConnectionState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.#events.emit('stateChanged', state);
  }
}
