import net from 'node:net';
import { randomBytes } from 'node:crypto';
import { afterEach, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { chatTopic, type ChatMessage } from '@sea/contract/chat';
import type { Config } from '../config.ts';
import { bearer, buildTestApp } from '../../test/helper.ts';
import { createChatClass, eventually, listenForChat, TestChatClient } from '../../test/chat-clients.ts';

/** Frames are about 1.8 KB: Hangul syllables are 3 bytes of UTF-8 (a number goes in front: 500 at most). */
const CONTENT = '바'.repeat(490);
/** Upper bound of the publishing loops: about 14 MB to a subscriber that reads nothing. */
const MAX_MESSAGES = 8_000;
const WINDOW = 16;

/**
 * A chat subscriber on a bare TCP socket: it speaks just enough WebSocket (a hand-written upgrade, masked text
 * frames) to CONNECT and SUBSCRIBE, then stops reading, as a client on a stalled network would. Nothing in
 * the client library buffers for it: once the kernel's buffers are full, everything stays on the server.
 * A paused socket does not notice that the server closed it; `resume()` reads on, up to the close.
 */
class StalledSubscriber {
  readonly socket: net.Socket;
  readonly closed: Promise<void>;
  #text = '';

  private constructor(socket: net.Socket) {
    this.socket = socket;
    this.closed = new Promise((resolve) => socket.once('close', () => resolve()));
    socket.on('data', (chunk: Buffer) => (this.#text += chunk.toString('latin1')));
    // A reset from the server ends the socket; the test only waits for `close`.
    socket.on('error', () => undefined);
  }

  /** Reads again: whatever the server sent, then the end of the connection if the server closed it. */
  resume(): void {
    this.socket.resume();
  }

  static async open(url: string, token: string, classId: number): Promise<StalledSubscriber> {
    const { port } = new URL(url);
    const subscriber = new StalledSubscriber(net.connect(Number(port), '127.0.0.1'));
    subscriber.socket.write(
      'GET /ws HTTP/1.1\r\nHost: 127.0.0.1\r\nUpgrade: websocket\r\nConnection: Upgrade\r\n' +
        `Sec-WebSocket-Key: ${randomBytes(16).toString('base64')}\r\nSec-WebSocket-Version: 13\r\n\r\n`,
    );
    await subscriber.#waitFor('HTTP/1.1 101');
    subscriber.#send(`CONNECT\naccept-version:1.2\nheart-beat:0,0\nAuthorization:Bearer ${token}\n\n\0`);
    await subscriber.#waitFor('CONNECTED');
    subscriber.#send(`SUBSCRIBE\nid:sub-0\ndestination:${chatTopic(classId)}\nreceipt:stalled\n\n\0`);
    await subscriber.#waitFor('receipt-id:stalled');
    subscriber.socket.pause();
    return subscriber;
  }

  /** Sends one masked text frame (client frames must be masked). */
  #send(text: string): void {
    const payload = Buffer.from(text);
    if (payload.length > 0xffff) throw new Error('frame too long for this test client');
    const length =
      payload.length < 126
        ? [0x80 | payload.length]
        : [0x80 | 126, payload.length >> 8, payload.length & 0xff];
    const mask = randomBytes(4);
    const masked = payload.map((byte, i) => byte ^ (mask[i % 4] ?? 0));
    this.socket.write(Buffer.concat([Buffer.from([0x81, ...length]), mask, masked]));
  }

  #waitFor(marker: string): Promise<void> {
    return eventually(() => expect(this.#text).toContain(marker), 10_000);
  }
}

let app: FastifyInstance | null = null;
const clients: TestChatClient[] = [];

afterEach(async () => {
  await Promise.all(clients.splice(0).map((client) => client.close()));
  await app?.close();
  app = null;
});

async function setUp(session: NonNullable<Config['chat']>['session']) {
  const built = await buildTestApp({
    chat: { session, rateLimit: { capacity: 1_000_000, refillPerSecond: 1_000_000 } },
  });
  app = built;
  const url = await listenForChat(built);
  const room = await createChatClass(built);
  const publisher = new TestChatClient(url, room.teacher.token);
  const reader = new TestChatClient(url, room.student.token);
  clients.push(publisher, reader);
  await Promise.all([publisher.connect(), reader.connect()]);
  await reader.join(room.classId);
  const stalled = await StalledSubscriber.open(url, room.teacher.token, room.classId);
  expect(built.roomBus.subscriptionCount).toBe(2);
  // The server dropped the stalled subscriber (the reader's subscription is the only one left).
  const dropped = () => built.roomBus.subscriptionCount < 2;
  return { app: built, room, publisher, reader, stalled, dropped };
}

describe('slow consumers over a real socket', () => {
  it('closes a subscriber that stops reading once its queue passes the byte cap; the others get everything', async () => {
    const maxBufferedBytes = 512 * 1024;
    const { app, room, publisher, reader, stalled, dropped } = await setUp({
      maxBufferedBytes,
      slowBufferedBytes: 64 * 1024,
      // Only the byte cap may close it in this test.
      maxSlowMs: 600_000,
    });

    let peakQueued = 0;
    const sampler = setInterval(() => (peakQueued = Math.max(peakQueued, app.roomQueuedBytes())), 5);
    let sent = 0;
    let sentAfterClose = 0;
    try {
      // Publish until the stalled subscriber is gone, then a little more: delivery to the others goes on.
      while (sent < MAX_MESSAGES && sentAfterClose < 100) {
        const droppedBefore = dropped();
        const batch = Array.from({ length: WINDOW }, (_, i) =>
          publisher.sendAndWait({ roomId: room.classId, content: `${sent + i} ${CONTENT}` }),
        );
        await Promise.all(batch);
        sent += WINDOW;
        peakQueued = Math.max(peakQueued, app.roomQueuedBytes());
        if (droppedBefore) sentAfterClose += WINDOW;
      }
    } finally {
      clearInterval(sampler);
    }

    expect(dropped()).toBe(true);
    expect(sentAfterClose).toBeGreaterThanOrEqual(100);
    // Memory held for the stalled peer stayed near the cap, although several times as much was published to
    // it. The margin: the check runs before each write, so the queue may pass the cap by one event-loop turn
    // of messages, and the reader's own socket may hold a few frames at the moment of a sample.
    expect(sent * CONTENT.length * 3).toBeGreaterThan(4 * maxBufferedBytes);
    expect(peakQueued).toBeLessThan(maxBufferedBytes + 256 * 1024);
    // The stalled client, reading again, finds its connection closed.
    stalled.resume();
    await stalled.closed;

    // The reader that keeps up received every stored message, once, in order.
    const response = await app.inject({
      url: `/find/chat/list/${room.classId}?size=500&after=0`,
      headers: bearer(room.student),
    });
    const firstPage = response.json<ChatMessage[]>();
    await eventually(() => expect(reader.messages).toHaveLength(sent), 20_000);
    expect(reader.messages.slice(0, firstPage.length)).toEqual(firstPage);
    const ids = reader.messages.map((message) => message.id);
    expect(new Set(ids).size).toBe(sent);
    expect([...ids].sort((a, b) => a - b)).toEqual(ids);
    expect(reader.client.connected).toBe(true);
    await eventually(() => expect(app.roomQueuedBytes()).toBeLessThan(64 * 1024));
  });

  it('closes a subscriber that stays behind for longer than the time allowed, below the byte cap', async () => {
    const maxSlowMs = 300;
    const { app, room, publisher, reader, stalled, dropped } = await setUp({
      maxBufferedBytes: 256 * 1024 * 1024,
      slowBufferedBytes: 16 * 1024,
      maxSlowMs,
    });
    // Fill the kernel's buffers until the server itself holds bytes for the stalled peer (counted once the
    // reader has caught up, so that only the stalled peer's queue is left), then stop publishing.
    let sent = 0;
    let behindSince: number | null = null;
    while (behindSince === null && !dropped() && sent < MAX_MESSAGES) {
      await Promise.all(
        Array.from({ length: WINDOW }, (_, i) =>
          publisher.sendAndWait({ roomId: room.classId, content: `${sent + i} ${CONTENT}` }),
        ),
      );
      sent += WINDOW;
      await eventually(() => expect(reader.messages).toHaveLength(sent));
      if (app.roomQueuedBytes() > 16 * 1024) behindSince = Date.now();
    }
    // (On a slow machine the time rule may already have closed it while the reader caught up.)
    const started = behindSince ?? Date.now();
    // Only the time rule can close it: the byte cap is far above everything this test publishes.
    await eventually(() => expect(dropped()).toBe(true), 10_000);
    // A busy machine delays the check (it runs every maxSlowMs / 2), never by seconds.
    expect(Date.now() - started).toBeLessThan(maxSlowMs + 5_000);
    expect(sent * CONTENT.length * 3).toBeLessThan(256 * 1024 * 1024);
    // Its queue goes with its socket (the subscription goes first; the socket's close event a moment later).
    await eventually(() => expect(app.roomQueuedBytes()).toBeLessThan(16 * 1024));
    stalled.resume();
    await stalled.closed;
  });
});
