import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@sea/contract/chat';
import { ChatBroker, type ChatSubscriber } from './chat-broker.ts';
import type { ChatStore } from './chat-ports.ts';
import { MemoryFanOut } from './memory-fan-out.ts';
import { frameText } from './stomp-frame.ts';
import { StompParser } from './stomp-parser.ts';

const store: ChatStore = {
  authenticate: async () => null,
  isMember: async () => true,
  save: async () => {
    throw new Error('not used');
  },
  latestId: async () => 0,
  listAfter: async () => [],
};

function subscriber(
  userId: string,
  version = '1.2',
): ChatSubscriber & { writes: Uint8Array[]; aborted: string[] } {
  const writes: Uint8Array[] = [];
  const aborted: string[] = [];
  return {
    userId,
    version,
    open: true,
    writes,
    aborted,
    sendBytes: (bytes) => writes.push(bytes),
    abort: (reason) => aborted.push(reason),
  };
}

function message(id: number, roomId = 1): ChatMessage {
  return {
    id,
    roomId,
    content: `m${id}`,
    writer: 'w',
    writer_id: 'u',
    profile_image_path: null,
    createdDate: new Date(0).toISOString(),
  };
}

const turn = (): Promise<void> => new Promise((resolve) => setImmediate(resolve));

function framesOf(writes: Uint8Array[]) {
  const parser = new StompParser();
  return writes
    .flatMap((bytes) => parser.push(bytes))
    .flatMap((event) => (event.type === 'frame' ? [event.frame] : []));
}

describe('ChatBroker delivery', () => {
  it('writes what arrived in one turn as one write per subscriber, in order, each message once', async () => {
    const broker = new ChatBroker({ store, fanOut: (target) => new MemoryFanOut(target) });
    const a = subscriber('a');
    const b = subscriber('b', '1.0');
    const other = subscriber('c');
    await broker.subscribe(a, 'sub-0', '/topic/greetings/1');
    await broker.subscribe(b, 'x:y', '/topic/greetings/1');
    await broker.subscribe(other, 'sub-0', '/topic/greetings/2');

    broker.deliver(message(1));
    broker.deliver(message(2));
    broker.deliver(message(2)); // a repeat (from another instance after a reconnect)
    broker.deliver(message(3, 9)); // a class nobody here follows
    await turn();

    expect(a.writes).toHaveLength(1);
    expect(b.writes).toHaveLength(1);
    expect(other.writes).toHaveLength(0);
    const frames = framesOf(a.writes);
    expect(frames.map((f) => [f.headers.get('message-id'), f.headers.get('subscription')])).toEqual([
      ['1', 'sub-0'],
      ['2', 'sub-0'],
    ]);
    expect(
      JSON.parse(
        frameText(frames[0] ?? frames[1] ?? { command: '', headers: new Map(), body: new Uint8Array() }),
      ),
    ).toEqual(message(1));
    // STOMP 1.0 has no header escaping: the subscription id goes out as it is.
    expect(new TextDecoder().decode(b.writes[0])).toContain('subscription:x:y\n');

    broker.deliver(message(1));
    await turn();
    expect(a.writes).toHaveLength(1);
  });

  it('a subscriber whose write fails is aborted, and the others still get the message', async () => {
    const logged: string[] = [];
    const broker = new ChatBroker({
      store,
      fanOut: (target) => new MemoryFanOut(target),
      log: (_level, text) => logged.push(text),
    });
    const before = subscriber('a');
    const broken = subscriber('b');
    const after = subscriber('c');
    broken.sendBytes = () => {
      throw new Error('socket exploded');
    };
    for (const each of [before, broken, after]) await broker.subscribe(each, 's', '/topic/greetings/1');
    broker.deliver(message(1));
    // An exception escaping the flush (it runs in setImmediate) would fail this test as an unhandled error.
    await turn();
    expect(before.writes).toHaveLength(1);
    expect(after.writes).toHaveLength(1);
    expect(broken.aborted).toEqual(['internal error']);
    expect(logged.some((text) => text.includes('delivery to b failed'))).toBe(true);
  });

  it('stops delivering to a subscription once it is gone', async () => {
    const broker = new ChatBroker({ store, fanOut: (target) => new MemoryFanOut(target) });
    const a = subscriber('a');
    await broker.subscribe(a, 's', '/topic/greetings/1');
    broker.unsubscribe(a, 's');
    broker.deliver(message(10));
    await turn();
    expect(a.writes).toHaveLength(0);
    expect(broker.subscriptionCount).toBe(0);
  });
});
