import { CHAT_ERROR_DESTINATION, chatTopic, type ChatMessage, type ChatRefusal } from '@sea/contract/chat';
import { RoomConnection } from '../lib/realtime/room-connection.ts';
import type { StompClientConfig, StompFactory, StompLike } from '../lib/realtime/stomp-client.ts';

/**
 * A STOMP client the test drives by hand: it connects, confirms subscriptions (the server's RECEIPT), drops and
 * delivers when told to.
 */
export class FakeStomp implements StompLike {
  readonly config: StompClientConfig;
  readonly subscriptions = new Map<string, (body: string) => void>();
  /** Subscriptions whose RECEIPT has not come yet. */
  readonly #unconfirmed: Array<() => void> = [];
  readonly published: Array<{ destination: string; body: unknown }> = [];
  activated = false;
  deactivated = false;

  constructor(config: StompClientConfig) {
    this.config = config;
  }

  activate(): void {
    this.activated = true;
  }

  async deactivate(): Promise<void> {
    this.deactivated = true;
  }

  subscribe(destination: string, onBody: (body: string) => void): Promise<void> {
    this.subscriptions.set(destination, onBody);
    return new Promise((resolve) => this.#unconfirmed.push(resolve));
  }

  publish(destination: string, body: string): void {
    this.published.push({ destination, body: JSON.parse(body) });
  }

  /** The server accepted CONNECT. */
  connect(): void {
    this.config.onConnected();
  }

  /** The server's RECEIPTs for every subscription so far: they are in effect. */
  confirm(): void {
    for (const resolve of this.#unconfirmed.splice(0)) resolve();
  }

  /** The server accepted CONNECT and then the subscriptions. */
  connectAndConfirm(): void {
    this.connect();
    this.confirm();
  }

  /** A MESSAGE on the class topic. */
  deliver(classId: number, message: ChatMessage): void {
    this.subscriptions.get(chatTopic(classId))?.(JSON.stringify(message));
  }

  refuse(refusal: ChatRefusal): void {
    this.subscriptions.get(CHAT_ERROR_DESTINATION)?.(JSON.stringify(refusal));
  }

  /** The socket dropped (network blip, server restart). */
  drop(): void {
    this.config.onSocketClosed();
  }

  /** The server answered ERROR and closed. */
  error(message: string): void {
    this.config.onRefused(message, null);
    this.config.onSocketClosed();
  }

  /** The server is stopping: ERROR with its reconnect hint, then it closes. */
  restart(message: string, reconnectWithinMs: number): void {
    this.config.onRefused(message, reconnectWithinMs);
    this.config.onSocketClosed();
  }
}

/** A factory that records every client it made. */
export function fakeStompFactory(): { clients: FakeStomp[]; factory: StompFactory; last: () => FakeStomp } {
  const clients: FakeStomp[] = [];
  const factory: StompFactory = (config) => {
    const client = new FakeStomp(config);
    clients.push(client);
    return client;
  };
  const last = (): FakeStomp => {
    const client = clients.at(-1);
    if (!client) throw new Error('no STOMP client was created');
    return client;
  };
  return { clients, factory, last };
}

/** A room connection of class 7 over fake STOMP clients, with no history and a 10 ms reconnection delay. */
export function fakeRoomConnection(): {
  stomp: ReturnType<typeof fakeStompFactory>;
  connection: RoomConnection;
} {
  const stomp = fakeStompFactory();
  const connection = new RoomConnection({
    classId: 7,
    url: 'ws://127.0.0.1:1/ws',
    getToken: () => 'token',
    fetchHistory: async () => [],
    createClient: stomp.factory,
    reconnectDelayMs: 10,
  });
  return { stomp, connection };
}

let nextId = 1;

/** A chat message as the server would send it. */
export function chatMessage(fields: Partial<ChatMessage> = {}): ChatMessage {
  const id = fields.id ?? nextId++;
  return {
    id,
    roomId: 7,
    content: `message ${id}`,
    writer: '바다',
    writer_id: 'u-sea',
    profile_image_path: null,
    role: 'student',
    createdDate: '2026-11-21T06:05:00.000Z',
    ...fields,
  };
}
