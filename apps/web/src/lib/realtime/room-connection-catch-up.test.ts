import { describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@sea/contract/chat';
import { chatMessage } from '../../testing/fake-stomp.ts';
import { CLASS_ID, historyOf, ids, openRoomConnection, roomWorldPerTest } from '../../testing/room-world.ts';

const world = roomWorldPerTest();

describe('RoomConnection catch-up', () => {
  it('reconnects 5 s after a blip with a fresh token and re-reads from the oldest message held, once', async () => {
    const { connection, stomp, fetchHistory, states } = openRoomConnection(world);
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    stomp.last().deliver(CLASS_ID, chatMessage({ id: 3 }));
    world.stored.push(chatMessage({ id: 3 }));

    stomp.last().drop();
    expect(connection.state).toBe('disconnected');
    expect(connection.send('hi')).toBe(false);
    // Messages world.stored while this client was away.
    world.stored.push(chatMessage({ id: 4 }), chatMessage({ id: 5 }));
    world.token = 'token-2';
    await vi.advanceTimersByTimeAsync(4_999);
    expect(stomp.clients).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(stomp.clients).toHaveLength(2);
    expect(stomp.last().config.token).toBe('token-2');

    stomp.last().connectAndConfirm();
    // One of the missed messages also comes live on the new subscription.
    stomp.last().deliver(CLASS_ID, chatMessage({ id: 5 }));
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchHistory).toHaveBeenLastCalledWith(CLASS_ID, 0);
    expect(fetchHistory).toHaveBeenCalledTimes(2);
    expect(ids(connection.messages)).toEqual([1, 2, 3, 4, 5]);
    expect(states).toEqual(['connecting', 'connected', 'disconnected', 'connecting', 'connected']);
  });

  it('drops on reconnect the messages deleted while it was away, and keeps what came live meanwhile', async () => {
    world.stored.push(chatMessage({ id: 3 }), chatMessage({ id: 4 }));
    const { connection, stomp } = openRoomConnection(world);
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    expect(ids(connection.messages)).toEqual([1, 2, 3, 4]);
    stomp.last().drop();
    // The teacher deletes the oldest and a middle message while this client is away; one more is written.
    world.stored.splice(
      0,
      world.stored.length,
      chatMessage({ id: 2 }),
      chatMessage({ id: 4 }),
      chatMessage({ id: 5 }),
    );
    await vi.advanceTimersByTimeAsync(5_000);
    stomp.last().connect();
    // Written after the new subscription took effect: it comes live, and is kept whatever the read says.
    stomp.last().deliver(CLASS_ID, chatMessage({ id: 6 }));
    stomp.last().confirm();
    await vi.advanceTimersByTimeAsync(0);
    expect(ids(connection.messages)).toEqual([2, 4, 5, 6]);
  });

  it('does not bring back a message deleted live while the re-read was on its way', async () => {
    const { connection, stomp, fetchHistory } = openRoomConnection(world);
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    stomp.last().drop();
    world.stored.push(chatMessage({ id: 3 }));
    await vi.advanceTimersByTimeAsync(5_000);
    let answer: (messages: ChatMessage[]) => void = () => undefined;
    fetchHistory.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    const before = [...world.stored];
    stomp.last().subscriptions.get('/topic/moderation/7')?.(
      JSON.stringify({ type: 'messageDeleted', roomId: CLASS_ID, messageId: 3 }),
    );
    answer(before);
    await vi.advanceTimersByTimeAsync(0);
    expect(ids(connection.messages)).toEqual([1, 2]);
  });

  it('reconnects within the hint when the server stops, and catches up without repeats', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const { connection, stomp, fetchHistory, states } = openRoomConnection(world);
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    stomp.last().deliver(CLASS_ID, chatMessage({ id: 3 }));
    stomp.last().restart('채팅 서버를 다시 시작해요. 잠시 후 다시 연결할게요.', 2_000);
    expect(connection.state).toBe('disconnected');
    expect(stomp.last().deactivated).toBe(true);
    // Written while nobody was connected: the catch-up after the reconnect brings it.
    world.stored.push(chatMessage({ id: 3 }), chatMessage({ id: 4 }));
    await vi.advanceTimersByTimeAsync(999);
    expect(stomp.clients).toHaveLength(1);
    await vi.advanceTimersByTimeAsync(1);
    expect(stomp.clients).toHaveLength(2);
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    // A reconnect re-reads from the oldest message held (deletions made meanwhile drop out, docs/classroom.md).
    expect(fetchHistory).toHaveBeenLastCalledWith(CLASS_ID, 0);
    expect(ids(connection.messages)).toEqual([1, 2, 3, 4]);
    expect(states).toEqual(['connecting', 'connected', 'disconnected', 'connecting', 'connected']);
  });

  it('never waits longer than its own reconnect delay, whatever the hint says', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    vi.spyOn(Math, 'random').mockReturnValue(0.99);
    const { stomp } = openRoomConnection(world, { reconnectDelayMs: 5_000 });
    stomp.last().connectAndConfirm();
    stomp.last().restart('다시 시작합니다', 3_600_000);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stomp.clients).toHaveLength(2);
  });

  it('reads the history only once the server confirmed the subscription', async () => {
    const { connection, stomp, fetchHistory } = openRoomConnection(world);
    stomp.last().connect();
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.state).toBe('connected');
    expect(fetchHistory).not.toHaveBeenCalled();
    // Stored while the server was still checking the membership: not delivered live, so only a history
    // read from now on can have it.
    world.stored.push(chatMessage({ id: 3 }));
    stomp.last().confirm();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchHistory).toHaveBeenCalledTimes(1);
    expect(ids(connection.messages)).toEqual([1, 2, 3]);
  });

  it('tries a failed re-read again until it succeeds, without losing a message', async () => {
    const fetchHistory = vi.fn(historyOf(world.stored));
    const { connection, stomp } = openRoomConnection(world, { fetchHistory });
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    stomp.last().drop();
    world.stored.push(chatMessage({ id: 3 }), chatMessage({ id: 4 }));
    await vi.advanceTimersByTimeAsync(5_000);
    fetchHistory.mockRejectedValueOnce(new Error('502')).mockRejectedValueOnce(new Error('502'));
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchHistory).toHaveBeenCalledTimes(2);
    await vi.advanceTimersByTimeAsync(1_000);
    expect(fetchHistory).toHaveBeenCalledTimes(3);
    expect(ids(connection.messages)).toEqual([1, 2]);
    await vi.advanceTimersByTimeAsync(2_000);
    expect(fetchHistory).toHaveBeenCalledTimes(4);
    expect(fetchHistory).toHaveBeenLastCalledWith(CLASS_ID, 0);
    expect(ids(connection.messages)).toEqual([1, 2, 3, 4]);
    expect(connection.state).toBe('connected');
    // One line for the read, not one per failed try (the browser logs each failed request itself).
    const warned = vi
      .mocked(console.warn)
      .mock.calls.filter(([text]) => text === 'chat history read failed; trying again');
    expect(warned).toHaveLength(1);
  });

  it('when the re-read keeps failing, starts over and reads from the same point, not after newer live messages', async () => {
    const fetchHistory = vi.fn(historyOf(world.stored));
    const { connection, stomp, states } = openRoomConnection(world, { fetchHistory });
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    stomp.last().drop();
    world.stored.push(chatMessage({ id: 3 }), chatMessage({ id: 4 }));
    await vi.advanceTimersByTimeAsync(5_000);
    fetchHistory.mockRejectedValue(new Error('history unavailable'));
    stomp.last().connectAndConfirm();
    // A live message arrives above the gap while the catch-up fails.
    world.stored.push(chatMessage({ id: 5 }));
    stomp.last().deliver(CLASS_ID, chatMessage({ id: 5 }));
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000);
    expect(fetchHistory).toHaveBeenCalledTimes(1 + 4);
    expect(connection.state).toBe('disconnected');
    expect(stomp.clients[1]?.deactivated).toBe(true);

    fetchHistory.mockImplementation(historyOf(world.stored));
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stomp.clients).toHaveLength(3);
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchHistory).toHaveBeenLastCalledWith(CLASS_ID, 0);
    expect(ids(connection.messages)).toEqual([1, 2, 3, 4, 5]);
    expect(states.slice(-3)).toEqual(['disconnected', 'connecting', 'connected']);
  });

  it('stops trying to read when the connection is closed', async () => {
    const fetchHistory = vi.fn(async () => {
      throw new Error('down');
    });
    const { connection, stomp } = openRoomConnection(world, { fetchHistory });
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    connection.close();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchHistory).toHaveBeenCalledTimes(1);
  });
});
