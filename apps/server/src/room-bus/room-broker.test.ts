import { describe, expect, it } from 'vitest';
import { RoomBroker } from './room-broker.ts';
import type { RoomAccess, RoomEvent } from './room-ports.ts';
import { MemoryFanOut } from './memory-fan-out.ts';
import { THROTTLED_HOLD_MS } from './delivery.ts';
import { frameText } from '../stomp/stomp-frame.ts';
import { MemoryChat } from '../../test/chat-fakes.ts';
import { eventually } from '../../test/chat-clients.ts';
import { chatMessage as message, framesOf, subscriber, turn } from '../../test/room-bus-fakes.ts';

/** A chat message as news of its room, the way the chat publishes it. */
function news(id: number, roomId = 1): RoomEvent {
  return { destination: `/topic/greetings/${roomId}`, id: String(id), body: message(id, roomId) };
}

const store: RoomAccess = {
  authenticate: async () => null,
  roleOf: async () => 'student',
  stillMembers: async (_classId, userIds) => new Set(userIds),
  forgetMemberships: () => undefined,
};

describe('RoomBroker delivery', () => {
  it('writes what arrived in one turn as one write per subscriber, in order, each message once', async () => {
    const broker = new RoomBroker({
      access: store,
      fanOut: (target) => new MemoryFanOut(target),
    });
    const a = subscriber('a');
    const b = subscriber('b', '1.0');
    const other = subscriber('c');
    await broker.subscribe(a, 'sub-0', '/topic/greetings/1');
    await broker.subscribe(b, 'x:y', '/topic/greetings/1');
    await broker.subscribe(other, 'sub-0', '/topic/greetings/2');

    broker.deliverEvent(news(1));
    broker.deliverEvent(news(2));
    broker.deliverEvent(news(2)); // a repeat (from another instance after a reconnect)
    broker.deliverEvent(news(3, 9)); // a class nobody here follows
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

    broker.deliverEvent(news(1));
    await turn();
    expect(a.writes).toHaveLength(1);
  });

  it("writes a subscriber's news of several topics in one turn as one write, each under its subscription", async () => {
    const broker = new RoomBroker({ access: store, fanOut: (target) => new MemoryFanOut(target) });
    const a = subscriber('a');
    const b = subscriber('b');
    await broker.subscribe(a, 'sub-0', '/topic/greetings/1');
    await broker.subscribe(a, 'sub-1', '/topic/polls/1');
    await broker.subscribe(b, 'sub-0', '/topic/polls/1');

    broker.deliverEvent(news(1));
    broker.deliverEvent({ destination: '/topic/polls/1', id: 'p1', body: { votes: 1 } });
    broker.deliverEvent(news(2));
    await turn();

    expect(a.writes).toHaveLength(1);
    expect(
      framesOf(a.writes).map((f) => [f.headers.get('message-id'), f.headers.get('subscription')]),
    ).toEqual([
      ['1', 'sub-0'],
      ['2', 'sub-0'],
      ['p1', 'sub-1'],
    ]);
    expect(
      framesOf(b.writes).map((f) => [f.headers.get('message-id'), f.headers.get('subscription')]),
    ).toEqual([['p1', 'sub-0']]);
  });

  it('holds a throttled update for other news: written with the next one at once, else after the hold', async () => {
    const broker = new RoomBroker({ access: store, fanOut: (target) => new MemoryFanOut(target) });
    const a = subscriber('a');
    await broker.subscribe(a, 'sub-0', '/topic/greetings/1');
    await broker.subscribe(a, 'sub-1', '/topic/polls/1');
    const ids = () => framesOf(a.writes).map((f) => f.headers.get('message-id'));

    broker.deliverEvent({ destination: '/topic/polls/1', id: 'p1', body: { votes: 1 }, throttled: true });
    await turn();
    expect(a.writes).toHaveLength(0);
    broker.deliverEvent(news(1));
    await turn();
    expect(a.writes).toHaveLength(1);
    // Grouped by topic, the topics of news that is not throttled first.
    expect(ids()).toEqual(['1', 'p1']);

    const held = performance.now();
    broker.deliverEvent({ destination: '/topic/polls/1', id: 'p2', body: { votes: 2 }, throttled: true });
    broker.deliverEvent({ destination: '/topic/polls/1', id: 'p3', body: { votes: 3 }, throttled: true });
    await turn();
    expect(a.writes).toHaveLength(1);
    await eventually(() => expect(a.writes).toHaveLength(2));
    expect(performance.now() - held).toBeGreaterThanOrEqual(THROTTLED_HOLD_MS - 2);
    expect(ids()).toEqual(['1', 'p1', 'p2', 'p3']);
  });

  it('writes to the teachers of a room before its students, whoever subscribed first', async () => {
    const access: RoomAccess = {
      ...store,
      roleOf: async (_classId, userId) => (userId === 't' ? 'teacher' : 'student'),
    };
    const broker = new RoomBroker({ access, fanOut: (target) => new MemoryFanOut(target) });
    const order: string[] = [];
    for (const userId of ['s1', 's2', 't']) {
      const each = subscriber(userId);
      each.sendBytes = (bytes) => order.push(`${userId} ${framesOf([bytes]).length}`);
      await broker.subscribe(each, 'sub-0', '/topic/questions/1');
    }
    broker.deliverEvent({ destination: '/topic/questions/1', id: 'q1', body: {} });
    await turn();
    expect(order).toEqual(['t 1', 's1 1', 's2 1']);
  });

  it('a subscriber whose write fails is aborted, and the others still get the message', async () => {
    const logged: string[] = [];
    const broker = new RoomBroker({
      access: store,
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
    broker.deliverEvent(news(1));
    // An exception escaping the flush (it runs in setImmediate) would fail this test as an unhandled error.
    await turn();
    expect(before.writes).toHaveLength(1);
    expect(after.writes).toHaveLength(1);
    expect(broken.aborted).toEqual(['internal error']);
    expect(logged.some((text) => text.includes('delivery to b failed'))).toBe(true);
  });

  it('stops delivering to a subscription once it is gone', async () => {
    const broker = new RoomBroker({
      access: store,
      fanOut: (target) => new MemoryFanOut(target),
    });
    const a = subscriber('a');
    await broker.subscribe(a, 's', '/topic/greetings/1');
    broker.unsubscribe(a, 's');
    broker.deliverEvent(news(10));
    await turn();
    expect(a.writes).toHaveLength(0);
    expect(broker.subscriptionCount).toBe(0);
  });
});

describe('RoomBroker: ended memberships', () => {
  function setUp(membershipCheckMs = 0) {
    const store = new MemoryChat();
    store.members.add('2:alice');
    store.members.add('2:carol');
    const announced: unknown[] = [];
    const broker = new RoomBroker({
      access: store,
      membershipCheckMs,
      fanOut: (target) => {
        const local = new MemoryFanOut(target);
        return {
          publishEvent: (event) => local.publishEvent(event),
          announce: (scope) => announced.push(scope),
          close: local.close,
        };
      },
    });
    return { store, broker, announced };
  }

  it('a deleted class ends its subscribers’ sessions here and is announced to the other instances', async () => {
    const { store, broker, announced } = setUp();
    const [alice, bob, carol] = [subscriber('alice'), subscriber('bob'), subscriber('carol')];
    await broker.subscribe(alice, 's', '/topic/greetings/1');
    await broker.subscribe(bob, 's', '/topic/greetings/1');
    await broker.subscribe(carol, 's', '/topic/greetings/2');
    store.members.delete('1:alice');
    store.members.delete('1:bob');
    broker.membershipsEnded({ classId: 1 });
    await eventually(() =>
      expect([alice.aborted, bob.aborted]).toEqual([
        ['not a member of this class'],
        ['not a member of this class'],
      ]),
    );
    expect(carol.aborted).toEqual([]);
    expect(announced).toEqual([{ classId: 1 }]);
  });

  it('a withdrawal checks every class: the withdrawn user’s sessions end, nobody else’s', async () => {
    const { store, broker, announced } = setUp();
    const [alice, aliceElsewhere, bob] = [subscriber('alice'), subscriber('alice'), subscriber('bob')];
    await broker.subscribe(alice, 's', '/topic/greetings/1');
    await broker.subscribe(aliceElsewhere, 's', '/topic/greetings/2');
    await broker.subscribe(bob, 's', '/topic/greetings/1');
    store.members.delete('1:alice');
    store.members.delete('2:alice');
    broker.membershipsEnded('all');
    await eventually(() => expect(aliceElsewhere.aborted).toEqual(['not a member of this class']));
    expect(alice.aborted).toEqual(['not a member of this class']);
    expect(bob.aborted).toEqual([]);
    expect(announced).toEqual(['all']);
  });

  it('news from another instance is checked against the database: a wrong one closes nothing', async () => {
    const { broker } = setUp();
    const alice = subscriber('alice');
    await broker.subscribe(alice, 's', '/topic/greetings/1');
    broker.recheckMemberships({ classId: 1 });
    broker.recheckMemberships('all');
    await new Promise((resolve) => setTimeout(resolve, 20));
    expect(alice.aborted).toEqual([]);
  });

  it('the periodic check ends a membership whose news never came', async () => {
    const { store, broker } = setUp(20);
    try {
      const bob = subscriber('bob');
      await broker.subscribe(bob, 's', '/topic/greetings/1');
      await new Promise((resolve) => setTimeout(resolve, 60));
      expect(bob.aborted).toEqual([]);
      store.members.delete('1:bob');
      await eventually(() => expect(bob.aborted).toEqual(['not a member of this class']));
    } finally {
      await broker.close();
    }
  });
});

describe('RoomBroker greetings', () => {
  it("tells a new subscriber the topic's state first, read again when news of it arrived meanwhile", async () => {
    const broker = new RoomBroker({
      access: store,
      fanOut: (target) => new MemoryFanOut(target),
    });
    const reads: Array<(bodies: unknown[]) => void> = [];
    broker.greet('/topic/moderation/', (roomId, userId, role) => {
      expect([roomId, userId, role]).toEqual([1, 'a', 'student']);
      return new Promise((resolve) => reads.push(resolve));
    });
    const a = subscriber('a');
    const subscribed = broker.subscribe(a, 'sub-0', '/topic/moderation/1');
    await eventually(() => expect(reads).toHaveLength(1));
    // A change is heard while the first read is on its way: that read may predate it.
    broker.publishEvent({ destination: '/topic/moderation/1', id: 'e1', body: { seconds: 30 } });
    await turn();
    reads[0]?.([{ seconds: 0 }]);
    await eventually(() => expect(reads).toHaveLength(2));
    reads[1]?.([{ seconds: 30 }]);
    expect(await subscribed).toEqual({ type: 'ok' });
    const bodies = framesOf(a.writes).map((frame) => [frame.headers.get('subscription'), frameText(frame)]);
    expect(bodies).toEqual([
      ['sub-0', '{"seconds":30}'],
      ['sub-0', '{"seconds":30}'],
    ]);
    // Other topics get no greeting.
    const b = subscriber('b');
    expect(await broker.subscribe(b, 'sub-0', '/topic/greetings/1')).toEqual({ type: 'ok' });
    expect(reads).toHaveLength(2);
    await broker.close();
  });

  it('writes a throttled update held when a subscriber joins before its greeting, which is newer', async () => {
    const broker = new RoomBroker({ access: store, fanOut: (target) => new MemoryFanOut(target) });
    broker.greet('/topic/polls/', async () => [{ votes: 2 }]);
    const earlier = subscriber('earlier');
    await broker.subscribe(earlier, 'sub-0', '/topic/polls/1');
    broker.deliverEvent({ destination: '/topic/polls/1', id: 'p1', body: { votes: 1 }, throttled: true });
    const a = subscriber('a');
    expect(await broker.subscribe(a, 'sub-0', '/topic/polls/1')).toEqual({ type: 'ok' });
    expect(framesOf(a.writes).map((frame) => frameText(frame))).toEqual(['{"votes":1}', '{"votes":2}']);
    await new Promise((resolve) => setTimeout(resolve, THROTTLED_HOLD_MS + 20));
    expect(a.writes).toHaveLength(2);
    await broker.close();
  });
});
