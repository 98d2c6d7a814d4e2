import { Client, type IFrame, type IMessage } from '@stomp/stompjs';
import type { FastifyInstance } from 'fastify';
import { CHAT_ERROR_DESTINATION, chatTopic, type ChatMessage, type ChatRefusal } from '@sea/contract/chat';
import { categories, classes, enrolments } from '../src/db/schema.ts';
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

/** A real `@stomp/stompjs` client over Node's WebSocket, with promises for what tests wait on. */
export class TestChatClient {
  readonly client: Client;
  readonly messages: ChatMessage[] = [];
  readonly refusals: ChatRefusal[] = [];
  readonly errors: IFrame[] = [];
  socket: WebSocket | null = null;
  #closed: Promise<CloseEvent>;
  #connecting: ((error: Error) => void) | null = null;

  constructor(
    url: string,
    token: string | null,
    options: { heartbeatIncoming?: number; heartbeatOutgoing?: number } = {},
  ) {
    let resolveClosed: (event: CloseEvent) => void = () => undefined;
    this.#closed = new Promise((resolve) => (resolveClosed = resolve));
    this.client = new Client({
      webSocketFactory: () => {
        this.socket = new WebSocket(url);
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
        (message) => this.refusals.push(JSON.parse(message.body) as ChatRefusal),
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
