import { describe, expect, it, vi } from 'vitest';
import { chatMessage } from '../../testing/fake-stomp.ts';
import { CLASS_ID, ids, openRoomConnection, roomWorldPerTest } from '../../testing/room-world.ts';

const world = roomWorldPerTest();

describe('RoomConnection', () => {
  it('connects with the token, subscribes, then loads the latest history', async () => {
    const { connection, stomp, fetchHistory, states } = openRoomConnection(world);
    expect(stomp.last().config.token).toBe('token-1');
    expect(stomp.last().activated).toBe(true);
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    expect([...stomp.last().subscriptions.keys()]).toEqual([
      '/user/queue/errors',
      '/topic/greetings/7',
      '/topic/moderation/7',
    ]);
    expect(fetchHistory).toHaveBeenCalledWith(CLASS_ID);
    expect(ids(connection.messages)).toEqual([1, 2]);
    expect(states).toEqual(['connecting', 'connected']);
  });

  it("drops a message the teacher deleted, and tells of the room's moderation", async () => {
    const { connection, stomp } = openRoomConnection(world);
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    const events: unknown[] = [];
    connection.on('moderated', (event) => events.push(event));
    const deleted = { type: 'messageDeleted', roomId: CLASS_ID, messageId: 1 };
    stomp.last().subscriptions.get('/topic/moderation/7')?.(JSON.stringify(deleted));
    expect(ids(connection.messages)).toEqual([2]);
    const slow = { type: 'slowMode', roomId: CLASS_ID, seconds: 30 };
    stomp.last().subscriptions.get('/topic/moderation/7')?.(JSON.stringify(slow));
    expect(events).toEqual([deleted, slow]);
  });

  it('watches other room topics on this connection, again after a reconnect, and publishes room actions', async () => {
    const { connection, stomp } = openRoomConnection(world);
    const bodies: unknown[] = [];
    connection.watch('/topic/questions/7', (body) => bodies.push(body));
    expect(connection.publish('/app/questions', { content: '질문' })).toBe(false);
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    stomp.last().subscriptions.get('/topic/questions/7')?.('{"n":1}');
    // A topic watched while connected is subscribed at once.
    connection.watch('/topic/hands/7', (body) => bodies.push(body));
    stomp.last().subscriptions.get('/topic/hands/7')?.('{"n":2}');
    expect(connection.publish('/app/questions', { content: '질문' })).toBe(true);
    expect(stomp.last().published.at(-1)).toEqual({
      destination: '/app/questions',
      body: { roomId: CLASS_ID, content: '질문' },
    });
    stomp.last().drop();
    await vi.advanceTimersByTimeAsync(5_000);
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    stomp.last().subscriptions.get('/topic/questions/7')?.('{"n":3}');
    stomp.last().subscriptions.get('/topic/hands/7')?.('{"n":4}');
    expect(bodies).toEqual([{ n: 1 }, { n: 2 }, { n: 3 }, { n: 4 }]);
  });

  it('merges live messages by id: no repeats, in order', async () => {
    const { connection, stomp } = openRoomConnection(world);
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    const changes: number[][] = [];
    connection.on('messagesChanged', (messages) => changes.push(ids(messages)));
    stomp.last().deliver(CLASS_ID, chatMessage({ id: 2 }));
    stomp.last().deliver(CLASS_ID, chatMessage({ id: 4 }));
    stomp.last().deliver(CLASS_ID, chatMessage({ id: 3 }));
    expect(changes).toEqual([
      [1, 2, 4],
      [1, 2, 3, 4],
    ]);
  });

  it('renews a refused token once and connects again; a second refusal fails', async () => {
    const renewToken = vi.fn(async () => {
      world.token = 'token-renewed';
      return true;
    });
    const { connection, stomp, states } = openRoomConnection(world, { renewToken });
    stomp.last().error('invalid or expired token');
    await vi.advanceTimersByTimeAsync(0);
    expect(renewToken).toHaveBeenCalledTimes(1);
    expect(stomp.clients).toHaveLength(2);
    expect(stomp.last().config.token).toBe('token-renewed');
    stomp.last().error('invalid or expired token');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(renewToken).toHaveBeenCalledTimes(1);
    expect(stomp.clients).toHaveLength(2);
    expect(connection.state).toBe('failed');
    expect(states).toEqual(['connecting', 'disconnected', 'connecting', 'failed']);
  });

  it('fails without retrying when the server refuses membership', async () => {
    const { connection, stomp } = openRoomConnection(world);
    stomp.last().error('not a member of this class');
    expect(connection.state).toBe('failed');
    expect(stomp.last().deactivated).toBe(true);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(stomp.clients).toHaveLength(1);
  });

  it('sends only while connected and only non-blank text', async () => {
    const { connection, stomp } = openRoomConnection(world);
    expect(connection.send('early')).toBe(false);
    stomp.last().connect();
    expect(connection.send('  ')).toBe(false);
    expect(connection.send('안녕하세요\n반가워요')).toBe(true);
    expect(stomp.last().published).toEqual([
      { destination: '/app/hello', body: { roomId: CLASS_ID, content: '안녕하세요\n반가워요' } },
    ]);
  });

  it('reports refusals of my messages', async () => {
    const { connection, stomp } = openRoomConnection(world);
    stomp.last().connect();
    const refusals: string[] = [];
    connection.on('refused', (refusal) => refusals.push(refusal.code));
    stomp.last().refuse({ code: 'too-long', message: '너무 길어요', receipt: null });
    expect(refusals).toEqual(['too-long']);
  });

  it('closes idempotently and never reconnects afterwards, even from a pending retry', async () => {
    const { connection, stomp, states } = openRoomConnection(world);
    stomp.last().connect();
    stomp.last().drop();
    connection.close();
    connection.close();
    expect(connection.state).toBe('disconnected');
    await vi.advanceTimersByTimeAsync(30_000);
    expect(stomp.clients).toHaveLength(1);
    // Callbacks of the old socket after close change nothing.
    stomp.last().connect();
    expect(connection.state).toBe('disconnected');
    expect(states).toEqual(['connecting', 'connected', 'disconnected']);
  });

  it('deactivates the live client on close', () => {
    const { connection, stomp } = openRoomConnection(world);
    stomp.last().connect();
    connection.close();
    expect(stomp.last().deactivated).toBe(true);
  });
});
