import { Client, type IFrame, type IMessage } from '@stomp/stompjs';
import { expect } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { CHAT_ERROR_DESTINATION, chatTopic, type ChatMessage, type ChatRefusal } from '@sea/contract/chat';
import { categories, classes, enrolments } from '../src/db/schema.ts';
import { encodeFrame, stompFrame, type StompFrame } from '../src/stomp/stomp-frame.ts';
import { StompParser } from '../src/stomp/stomp-parser.ts';
import { createUser, type TestUser } from './helper.ts';

/** Listens on a free loopback port and answers the chat's WebSocket URL. */
export async function listenForChat(app: FastifyInstance): Promise<string> {
  await app.listen({ host: '127.0.0.1', port: 0 });
  const address = app.server.address();
  if (address === null || typeof address === 'string') throw new Error('no TCP address');
  return `ws://127.0.0.1:${address.port}/ws`;
}

/** A class with its teacher, one enrolled student and one stranger. */
export async function createChatClass(app: FastifyInstance): Promise<{
  classId: number;
  teacher: TestUser;
  student: TestUser;
  stranger: TestUser;
}> {
  const teacher = await createUser(app);
  const student = await createUser(app);
  const stranger = await createUser(app);
  const [category] = await app.db.select({ id: categories.id }).from(categories).limit(1);
  if (!category) throw new Error('categories are not seeded');
  const [row] = await app.db
    .insert(classes)
    .values({
      teacherId: teacher.id,
      categoryId: category.id,
      name: '바다 수업',
      object: '목표',
      description: '설명',
    })
    .returning({ id: classes.id });
  if (!row) throw new Error('class not created');
  await app.db.insert(enrolments).values({ classId: row.id, userId: student.id });
  return { classId: row.id, teacher, student, stranger };
}

/**
 * A real `@stomp/stompjs` client over Node's WebSocket (or the socket `options.socket` opens, e.g. a SockJS
 * one), with promises for what tests wait on.
 */
export class TestChatClient {
  readonly client: Client;
  readonly messages: ChatMessage[] = [];
  readonly refusals: ChatRefusal[] = [];
  readonly errors: IFrame[] = [];
  /** The bodies received on each destination {@link watch}ed, in order. */
  readonly topics = new Map<string, unknown[]>();
  /** When each body of a {@link watch}ed destination arrived (Date.now()), by destination. */
  readonly arrivals = new Map<string, number[]>();
  socket: WebSocket | null = null;
  readonly #refusalWaiters = new Map<string, (refusal: ChatRefusal) => void>();
  #closed: Promise<CloseEvent>;
  #connecting: ((error: Error) => void) | null = null;

  constructor(
    url: string,
    token: string | null,
    options: { heartbeatIncoming?: number; heartbeatOutgoing?: number; socket?: () => WebSocket } = {},
  ) {
    let resolveClosed: (event: CloseEvent) => void = () => undefined;
    this.#closed = new Promise((resolve) => (resolveClosed = resolve));
    this.client = new Client({
      webSocketFactory: () => {
        this.socket = options.socket ? options.socket() : new WebSocket(url);
        return this.socket;
      },
      connectHeaders: token === null ? {} : { Authorization: `Bearer ${token}` },
      reconnectDelay: 0,
      heartbeatIncoming: options.heartbeatIncoming ?? 0,
      heartbeatOutgoing: options.heartbeatOutgoing ?? 0,
      onStompError: (frame) => {
        this.errors.push(frame);
        this.#connecting?.(new Error(frame.headers.message ?? 'ERROR'));
      },
      onWebSocketClose: (event: CloseEvent) => {
        resolveClosed(event);
        this.#connecting?.(new Error('closed before CONNECTED'));
      },
    });
  }

  /** Connects; rejects with the ERROR frame's message if the server refuses. */
  connect(): Promise<void> {
    return new Promise<void>((resolve, reject) => {
      this.#connecting = reject;
      this.client.onConnect = () => resolve();
      this.client.activate();
    }).finally(() => {
      this.#connecting = null;
    });
  }

  /** Subscribes to a class's chat (and to refusals), resolving on the server's receipt. */
  async join(classId: number): Promise<void> {
    await this.#withReceipt((receipt) =>
      this.client.subscribe(
        CHAT_ERROR_DESTINATION,
        (message) => {
          const refusal = JSON.parse(message.body) as ChatRefusal;
          this.refusals.push(refusal);
          if (refusal.receipt !== null) this.#refusalWaiters.get(refusal.receipt)?.(refusal);
        },
        { receipt },
      ),
    );
    await this.#withReceipt((receipt) =>
      this.client.subscribe(
        chatTopic(classId),
        (message: IMessage) => this.messages.push(JSON.parse(message.body) as ChatMessage),
        {
          receipt,
        },
      ),
    );
  }

  /** Sends a SEND and resolves on its RECEIPT (that is: once the message is stored). */
  sendAndWait(body: unknown): Promise<void> {
    return this.#withReceipt((receipt) =>
      this.client.publish({ destination: '/app/hello', body: JSON.stringify(body), headers: { receipt } }),
    );
  }

  /** Subscribes to any destination, resolving on the server's receipt; bodies collect in `topics`. */
  async watch(destination: string): Promise<unknown[]> {
    const bodies: unknown[] = [];
    const times: number[] = [];
    this.topics.set(destination, bodies);
    this.arrivals.set(destination, times);
    await this.#withReceipt((receipt) =>
      this.client.subscribe(
        destination,
        (message) => {
          times.push(Date.now());
          bodies.push(JSON.parse(message.body));
        },
        { receipt },
      ),
    );
    return bodies;
  }

  /**
   * Sends to any destination; resolves with null on its RECEIPT (done), or with the refusal that names its
   * receipt (needs {@link join} first, which subscribes to refusals).
   */
  request(destination: string, body: unknown): Promise<ChatRefusal | null> {
    const receipt = `r-${Math.random().toString(36).slice(2)}`;
    return new Promise<ChatRefusal | null>((resolve) => {
      this.#refusalWaiters.set(receipt, resolve);
      this.client.watchForReceipt(receipt, () => resolve(null));
      this.client.publish({ destination, body: JSON.stringify(body), headers: { receipt } });
    }).finally(() => this.#refusalWaiters.delete(receipt));
  }

  /** Sends without waiting. */
  send(body: unknown): void {
    this.client.publish({ destination: '/app/hello', body: JSON.stringify(body) });
  }

  /** Resolves when the socket closes (for whatever reason). */
  closed(): Promise<CloseEvent> {
    return this.#closed;
  }

  async close(): Promise<void> {
    await this.client.deactivate();
  }

  #withReceipt(act: (receipt: string) => void): Promise<void> {
    const receipt = `r-${Math.random().toString(36).slice(2)}`;
    const done = new Promise<void>((resolve) => this.client.watchForReceipt(receipt, () => resolve()));
    act(receipt);
    return done;
  }
}

/**
 * A STOMP client of any version over Node's WebSocket that sends whatever bytes a test gives it (binary
 * messages), and reads the server's frames as a client of the negotiated version would: bytes it could not
 * parse are kept in `malformed`.
 */
export class RawStompClient {
  readonly frames: StompFrame[] = [];
  readonly malformed: string[] = [];
  readonly closed: Promise<void>;
  readonly #socket: WebSocket;
  readonly #parser = new StompParser();
  #open = true;

  private constructor(socket: WebSocket) {
    this.#socket = socket;
    socket.binaryType = 'arraybuffer';
    this.closed = new Promise((resolve) =>
      socket.addEventListener('close', () => {
        this.#open = false;
        resolve();
      }),
    );
    socket.addEventListener('message', (event: MessageEvent) => {
      const data = event.data as ArrayBuffer | string;
      const bytes = typeof data === 'string' ? new TextEncoder().encode(data) : new Uint8Array(data);
      for (const parsed of this.#parser.push(bytes)) {
        if (parsed.type === 'error') this.malformed.push(parsed.message);
        if (parsed.type !== 'frame') continue;
        this.frames.push(parsed.frame);
        const version = parsed.frame.headers.get('version');
        if (parsed.frame.command === 'CONNECTED' && version) this.#parser.version = version;
      }
    });
  }

  /** Opens a socket and CONNECTs with `version` ('1.0': no accept-version header); null if refused. */
  static async connect(url: string, token: string, version: string): Promise<RawStompClient | null> {
    const socket = new WebSocket(url);
    await new Promise<void>((resolve, reject) => {
      socket.addEventListener('open', () => resolve());
      socket.addEventListener('error', () => reject(new Error('socket failed to open')));
    });
    const client = new RawStompClient(socket);
    const headers: Record<string, string> = { Authorization: `Bearer ${token}` };
    if (version !== '1.0') headers['accept-version'] = version;
    client.send(encodeFrame(stompFrame('CONNECT', headers)));
    await eventually(() => expect(client.frames.length > 0 || !client.open).toBe(true));
    if (client.frames[0]?.command === 'CONNECTED') return client;
    client.close();
    return null;
  }

  get open(): boolean {
    return this.#open;
  }

  send(bytes: Uint8Array): void {
    if (this.#open && this.#socket.readyState === WebSocket.OPEN) this.#socket.send(bytes);
  }

  /** Waits for a frame matching `match` (or fails after the timeout). */
  async frame(match: (frame: StompFrame) => boolean, timeoutMs = 5_000): Promise<StompFrame> {
    let found: StompFrame | undefined;
    await eventually(() => {
      found = this.frames.find(match);
      expect(found).toBeDefined();
    }, timeoutMs);
    if (!found) throw new Error('no such frame');
    return found;
  }

  close(): void {
    this.#socket.close();
  }
}

/** Polls until `check` passes or the time is up (then the last failure is thrown). */
export async function eventually(check: () => void | Promise<void>, timeoutMs = 5_000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      await check();
      return;
    } catch (error) {
      if (Date.now() > deadline) throw error;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
