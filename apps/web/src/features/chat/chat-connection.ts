import { Client, type IMessage } from '@stomp/stompjs';
import {
  CHAT_ERROR_DESTINATION,
  CHAT_HEARTBEAT_MS,
  CHAT_HISTORY_MAX,
  CHAT_RECONNECT_DELAY_MS,
  CHAT_SEND_DESTINATION,
  chatTopic,
  type ChatMessage,
  type ChatRefusal,
} from '@sea/contract/chat';
import { mergeMessages } from './merge-messages.ts';

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
};

/** The part of a STOMP client the connection drives; tests inject a fake one. */
export type StompLike = {
  activate(): void;
  deactivate(): Promise<void>;
  subscribe(destination: string, onBody: (body: string) => void): void;
  publish(destination: string, body: string): void;
};

/** What a STOMP client factory is given: where to connect, with which token, and whom to tell what. */
export type StompClientConfig = {
  url: string;
  token: string | null;
  heartbeatMs: number;
  onConnected: () => void;
  /** The server answered an ERROR frame (refused token or membership); it closes the socket next. */
  onRefused: (message: string) => void;
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
};

/** Pages of catch-up read after a reconnect at most (each up to the history route's maximum). */
const MAX_CATCH_UP_PAGES = 20;

/** The real client: @stomp/stompjs, with its own reconnecting turned off (this class reconnects). */
export const createStompClient: StompFactory = (config) => {
  const client = new Client({
    brokerURL: config.url,
    connectHeaders: config.token === null ? {} : { Authorization: `Bearer ${config.token}` },
    heartbeatIncoming: config.heartbeatMs,
    heartbeatOutgoing: config.heartbeatMs,
    reconnectDelay: 0,
    onConnect: () => config.onConnected(),
    onStompError: (frame) => config.onRefused(frame.headers.message ?? frame.body),
    onWebSocketClose: () => config.onSocketClosed(),
  });
  return {
    activate: () => client.activate(),
    deactivate: () => client.deactivate(),
    subscribe: (destination, onBody) => {
      client.subscribe(destination, (message: IMessage) => onBody(message.body));
    },
    publish: (destination, body) => client.publish({ destination, body }),
  };
};

/**
 * The live chat of one class, without any UI framework. It connects at once; after a lost connection it
 * waits 5 s, reconnects and reads what it missed with `?after=<last id>`, merging by id, so a network blip
 * neither loses nor duplicates a message. When the server refuses the token (it expired), the token is renewed
 * once and the connection tried again; any other ERROR (membership refused) ends in `failed` without retrying.
 * {@link close} is idempotent and stops everything.
 */
export class ChatConnection {
  readonly #options: Required<ChatConnectionOptions>;
  readonly #listeners: { [K in keyof ChatConnectionEvents]: Set<(value: ChatConnectionEvents[K]) => void> } =
    {
      stateChanged: new Set(),
      messagesChanged: new Set(),
      refused: new Set(),
    };
  #state: ChatConnectionState = 'connecting';
  #messages: readonly ChatMessage[] = [];
  #client: StompLike | null = null;
  /** Bumped on every new socket and on close: callbacks of an older socket are ignored. */
  #generation = 0;
  #reconnectTimer: ReturnType<typeof setTimeout> | null = null;
  /** The last id seen when the connection was lost; the catch-up reads after it. */
  #resumeAfter: number | null = null;
  #closed = false;
  /** Set after a token renewal until the next successful CONNECT, so a refused token is renewed only once. */
  #renewed = false;

  constructor(options: ChatConnectionOptions) {
    this.#options = {
      createClient: createStompClient,
      renewToken: async () => false,
      reconnectDelayMs: CHAT_RECONNECT_DELAY_MS,
      heartbeatMs: CHAT_HEARTBEAT_MS,
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
    const set = this.#listeners[event] as Set<(value: ChatConnectionEvents[K]) => void>;
    set.add(listener);
    return () => set.delete(listener);
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
    void this.#client?.deactivate();
    this.#client = null;
    this.#setState('disconnected');
  }

  #open(): void {
    const generation = ++this.#generation;
    const current = (): boolean => generation === this.#generation;
    this.#setState('connecting');
    const client = this.#options.createClient({
      url: this.#options.url,
      token: this.#options.getToken(),
      heartbeatMs: this.#options.heartbeatMs,
      onConnected: () => {
        if (current()) this.#connected(client, generation);
      },
      onRefused: (message) => {
        if (!current()) return;
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
    client.subscribe(CHAT_ERROR_DESTINATION, (body) => {
      const refusal = parseJson<ChatRefusal>(body);
      if (refusal) this.#emit('refused', refusal);
    });
    client.subscribe(chatTopic(classId), (body) => {
      const message = parseJson<ChatMessage>(body);
      if (message) this.#merge([message]);
    });
    this.#setState('connected');
    // Subscribed first, then read: a message stored in between arrives both ways and is merged once.
    const after = this.#resumeAfter;
    this.#catchUp(after, generation).catch((error: unknown) => {
      // The product only logs history failures; live messages keep flowing.
      console.warn('chat history could not be loaded', error);
    });
  }

  async #catchUp(after: number | null, generation: number): Promise<void> {
    const { classId, fetchHistory } = this.#options;
    if (after === null) {
      const page = await fetchHistory(classId);
      if (generation === this.#generation) this.#merge(page);
      return;
    }
    let from = after;
    for (let pages = 0; pages < MAX_CATCH_UP_PAGES; pages += 1) {
      const page = await fetchHistory(classId, from);
      if (generation !== this.#generation) return;
      this.#merge(page);
      const last = page.at(-1);
      if (page.length < CHAT_HISTORY_MAX || last === undefined) return;
      from = last.id;
    }
  }

  #lost(): void {
    this.#generation += 1;
    this.#client = null;
    this.#resumeAfter = this.#messages.at(-1)?.id ?? this.#resumeAfter;
    this.#setState('disconnected');
    this.#reconnectTimer = setTimeout(() => {
      this.#reconnectTimer = null;
      if (!this.#closed) this.#open();
    }, this.#options.reconnectDelayMs);
  }

  #merge(incoming: readonly ChatMessage[]): void {
    const merged = mergeMessages(this.#messages, incoming);
    if (merged === this.#messages) return;
    this.#messages = merged;
    this.#emit('messagesChanged', merged);
  }

  #setState(state: ChatConnectionState): void {
    if (this.#state === state) return;
    this.#state = state;
    this.#emit('stateChanged', state);
  }

  #emit<K extends keyof ChatConnectionEvents>(event: K, value: ChatConnectionEvents[K]): void {
    for (const listener of this.#listeners[event])
      (listener as (value: ChatConnectionEvents[K]) => void)(value);
  }
}

function parseJson<T>(text: string): T | null {
  try {
    return JSON.parse(text) as T;
  } catch {
    console.warn('chat: ignored a message that is not JSON');
    return null;
  }
}
