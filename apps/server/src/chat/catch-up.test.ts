import { describe, expect, it } from 'vitest';
import type { ChatMessage } from '@sea/contract/chat';
import { MemoryFanOut } from '../room-bus/memory-fan-out.ts';
import { RoomBroker } from '../room-bus/room-broker.ts';
import { CatchUp } from './catch-up.ts';
import { chatEvent } from './chat-messages.ts';
import { MemoryChat } from '../../test/chat-fakes.ts';
import { eventually } from '../../test/chat-clients.ts';
import { chatMessage as message, framesOf, subscriber, turn } from '../../test/room-bus-fakes.ts';

describe('the chat’s catch-up after a fan-out outage', () => {
  const MINUTE = 60_000;

  function setUp() {
    let clock = Date.parse('2026-11-21T06:00:00Z');
    const store = new MemoryChat();
    const broker = new RoomBroker({ access: store, fanOut: (target) => new MemoryFanOut(target) });
    const catchUp = new CatchUp({
      messages: store,
      roomIds: () => broker.roomIds(),
      deliver: (m) => broker.deliverEvent(chatEvent(m)),
      log: () => undefined,
      now: () => clock,
      retryMs: 5,
    });
    broker.onOutage(catchUp);
    /** A message published here: delivered at once to this instance's subscribers. */
    const published = (m: ChatMessage): void => broker.deliverEvent(chatEvent(m));
    /** A message stored by any instance at the current time (not delivered: its publish is what was lost). */
    const stored = (id: number): ChatMessage => {
      const m = { ...message(id), createdDate: new Date(clock).toISOString() };
      store.messages.push(m);
      return m;
    };
    const advance = (ms: number): void => {
      clock += ms;
    };
    const received = (writes: Uint8Array[]): number[] =>
      framesOf(writes).map((frame) => Number(frame.headers.get('message-id')));
    return { store, broker, stored, published, advance, received };
  }

  it('delivers a lower-id message of another instance still in flight when the subscription dropped', async () => {
    const { broker, stored, published, advance, received } = setUp();
    const a = subscriber('alice');
    await broker.subscribe(a, 's', '/topic/greetings/1');
    published(stored(1));
    advance(2 * MINUTE);
    // Another instance stored 100 first; this one stored 101 a moment later and delivered it at once. The
    // publish of 100 was still on its way when the subscription to the other instances dropped.
    stored(100);
    advance(1);
    published(stored(101));
    await turn();
    advance(5);
    broker.suspended();
    // Stored elsewhere during the outage: more than one page of the catch-up.
    advance(30_000);
    for (let id = 102; id < 1_302; id += 1) stored(id);
    broker.resumed();

    const expected = [1, 101, 100, ...Array.from({ length: 1_200 }, (_, i) => 102 + i)];
    await eventually(() => expect(received(a.writes)).toHaveLength(expected.length));
    await turn();
    expect(received(a.writes)).toEqual(expected);
  });

  it('reads from the last message stored a margin before the outage, and not from the beginning', async () => {
    const { broker, stored, published, advance, received } = setUp();
    const a = subscriber('alice');
    await broker.subscribe(a, 's', '/topic/greetings/1');
    stored(1); // long ago, delivered to whoever was there then (before this subscriber)
    advance(10 * MINUTE);
    published(stored(2));
    advance(1_000);
    broker.suspended();
    stored(3);
    broker.resumed();
    // Message 1 is older than the margin: not this subscriber's business, and not sent again.
    await eventually(() => expect(received(a.writes)).toEqual([2, 3]));
    await turn();
    expect(received(a.writes)).toEqual([2, 3]);
  });

  it('tries again while the database is away too, then catches up', async () => {
    const { store, broker, stored, advance, received } = setUp();
    const a = subscriber('alice');
    await broker.subscribe(a, 's', '/topic/greetings/1');
    broker.suspended();
    advance(1_000);
    stored(7);
    store.failing = true;
    broker.resumed();
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(received(a.writes)).toEqual([]);
    store.failing = false;
    await eventually(() => expect(received(a.writes)).toEqual([7]));
  });
});
