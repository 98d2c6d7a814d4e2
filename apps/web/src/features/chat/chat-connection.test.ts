import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@sea/contract/chat';
import { ChatConnection, type ChatConnectionState } from './chat-connection.ts';
import { chatMessage, fakeStompFactory } from './testing/fake-stomp.ts';

const CLASS_ID = 7;

/** What the history route would answer, from a list standing for the database. */
function historyOf(stored: ChatMessage[]) {
  return vi.fn(async (_classId: number, after?: number) =>
    after === undefined ? stored.slice(-100) : stored.filter((m) => m.id > after),
  );
}

let stored: ChatMessage[];
let token: string;

beforeEach(() => {
  vi.useFakeTimers();
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
  stored = [chatMessage({ id: 1 }), chatMessage({ id: 2 })];
  token = 'token-1';
});
afterEach(() => {
  vi.useRealTimers();
  vi.restoreAllMocks();
});

function open(extra: Partial<ConstructorParameters<typeof ChatConnection>[0]> = {}) {
  const stomp = fakeStompFactory();
  const fetchHistory = historyOf(stored);
  const connection = new ChatConnection({
    classId: CLASS_ID,
    url: 'ws://127.0.0.1:1/ws',
    getToken: () => token,
    fetchHistory,
    createClient: stomp.factory,
    ...extra,
  });
  const states: ChatConnectionState[] = [connection.state];
  connection.on('stateChanged', (state) => states.push(state));
  return { connection, stomp, fetchHistory, states };
}

const ids = (messages: readonly ChatMessage[]): number[] => messages.map((m) => m.id);

describe('ChatConnection', () => {
  it('connects with the token, subscribes, then loads the latest history', async () => {
    const { connection, stomp, fetchHistory, states } = open();
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
    const { connection, stomp } = open();
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
    const { connection, stomp } = open();
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
    const { connection, stomp } = open();
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

  it('reconnects 5 s after a blip with a fresh token and re-reads from the oldest message held, once', async () => {
    const { connection, stomp, fetchHistory, states } = open();
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    stomp.last().deliver(CLASS_ID, chatMessage({ id: 3 }));
    stored.push(chatMessage({ id: 3 }));

    stomp.last().drop();
    expect(connection.state).toBe('disconnected');
    expect(connection.send('hi')).toBe(false);
    // Messages stored while this client was away.
    stored.push(chatMessage({ id: 4 }), chatMessage({ id: 5 }));
    token = 'token-2';
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
    stored.push(chatMessage({ id: 3 }), chatMessage({ id: 4 }));
    const { connection, stomp } = open();
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    expect(ids(connection.messages)).toEqual([1, 2, 3, 4]);
    stomp.last().drop();
    // The teacher deletes the oldest and a middle message while this client is away; one more is written.
    stored.splice(0, stored.length, chatMessage({ id: 2 }), chatMessage({ id: 4 }), chatMessage({ id: 5 }));
    await vi.advanceTimersByTimeAsync(5_000);
    stomp.last().connect();
    // Written after the new subscription took effect: it comes live, and is kept whatever the read says.
    stomp.last().deliver(CLASS_ID, chatMessage({ id: 6 }));
    stomp.last().confirm();
    await vi.advanceTimersByTimeAsync(0);
    expect(ids(connection.messages)).toEqual([2, 4, 5, 6]);
  });

  it('does not bring back a message deleted live while the re-read was on its way', async () => {
    const { connection, stomp, fetchHistory } = open();
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    stomp.last().drop();
    stored.push(chatMessage({ id: 3 }));
    await vi.advanceTimersByTimeAsync(5_000);
    let answer: (messages: ChatMessage[]) => void = () => undefined;
    fetchHistory.mockImplementationOnce(() => new Promise((resolve) => (answer = resolve)));
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    const before = [...stored];
    stomp.last().subscriptions.get('/topic/moderation/7')?.(
      JSON.stringify({ type: 'messageDeleted', roomId: CLASS_ID, messageId: 3 }),
    );
    answer(before);
    await vi.advanceTimersByTimeAsync(0);
    expect(ids(connection.messages)).toEqual([1, 2]);
  });

  it('renews a refused token once and connects again; a second refusal fails', async () => {
    const renewToken = vi.fn(async () => {
      token = 'token-renewed';
      return true;
    });
    const { connection, stomp, states } = open({ renewToken });
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

  it('reconnects within the hint when the server stops, and catches up without repeats', async () => {
    vi.spyOn(console, 'info').mockImplementation(() => undefined);
    vi.spyOn(Math, 'random').mockReturnValue(0.5);
    const { connection, stomp, fetchHistory, states } = open();
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    stomp.last().deliver(CLASS_ID, chatMessage({ id: 3 }));
    stomp.last().restart('채팅 서버를 다시 시작합니다. 잠시 후 다시 연결합니다.', 2_000);
    expect(connection.state).toBe('disconnected');
    expect(stomp.last().deactivated).toBe(true);
    // Written while nobody was connected: the catch-up after the reconnect brings it.
    stored.push(chatMessage({ id: 3 }), chatMessage({ id: 4 }));
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
    const { stomp } = open({ reconnectDelayMs: 5_000 });
    stomp.last().connectAndConfirm();
    stomp.last().restart('다시 시작합니다', 3_600_000);
    await vi.advanceTimersByTimeAsync(5_000);
    expect(stomp.clients).toHaveLength(2);
  });

  it('fails without retrying when the server refuses membership', async () => {
    const { connection, stomp } = open();
    stomp.last().error('not a member of this class');
    expect(connection.state).toBe('failed');
    expect(stomp.last().deactivated).toBe(true);
    await vi.advanceTimersByTimeAsync(30_000);
    expect(stomp.clients).toHaveLength(1);
  });

  it('sends only while connected and only non-blank text', async () => {
    const { connection, stomp } = open();
    expect(connection.send('early')).toBe(false);
    stomp.last().connect();
    expect(connection.send('  ')).toBe(false);
    expect(connection.send('안녕하세요\n반가워요')).toBe(true);
    expect(stomp.last().published).toEqual([
      { destination: '/app/hello', body: { roomId: CLASS_ID, content: '안녕하세요\n반가워요' } },
    ]);
  });

  it('reports refusals of my messages', async () => {
    const { connection, stomp } = open();
    stomp.last().connect();
    const refusals: string[] = [];
    connection.on('refused', (refusal) => refusals.push(refusal.code));
    stomp.last().refuse({ code: 'too-long', message: '너무 길어요', receipt: null });
    expect(refusals).toEqual(['too-long']);
  });

  it('closes idempotently and never reconnects afterwards, even from a pending retry', async () => {
    const { connection, stomp, states } = open();
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

  it('reads the history only once the server confirmed the subscription', async () => {
    const { connection, stomp, fetchHistory } = open();
    stomp.last().connect();
    await vi.advanceTimersByTimeAsync(0);
    expect(connection.state).toBe('connected');
    expect(fetchHistory).not.toHaveBeenCalled();
    // Stored while the server was still checking the membership: not delivered live, so only a history
    // read from now on can have it.
    stored.push(chatMessage({ id: 3 }));
    stomp.last().confirm();
    await vi.advanceTimersByTimeAsync(0);
    expect(fetchHistory).toHaveBeenCalledTimes(1);
    expect(ids(connection.messages)).toEqual([1, 2, 3]);
  });

  it('tries a failed re-read again until it succeeds, without losing a message', async () => {
    const fetchHistory = vi.fn(historyOf(stored));
    const { connection, stomp } = open({ fetchHistory });
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    stomp.last().drop();
    stored.push(chatMessage({ id: 3 }), chatMessage({ id: 4 }));
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
  });

  it('when the re-read keeps failing, starts over and reads from the same point, not after newer live messages', async () => {
    const fetchHistory = vi.fn(historyOf(stored));
    const { connection, stomp, states } = open({ fetchHistory });
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    stomp.last().drop();
    stored.push(chatMessage({ id: 3 }), chatMessage({ id: 4 }));
    await vi.advanceTimersByTimeAsync(5_000);
    fetchHistory.mockRejectedValue(new Error('history unavailable'));
    stomp.last().connectAndConfirm();
    // A live message arrives above the gap while the catch-up fails.
    stored.push(chatMessage({ id: 5 }));
    stomp.last().deliver(CLASS_ID, chatMessage({ id: 5 }));
    await vi.advanceTimersByTimeAsync(1_000 + 2_000 + 4_000);
    expect(fetchHistory).toHaveBeenCalledTimes(1 + 4);
    expect(connection.state).toBe('disconnected');
    expect(stomp.clients[1]?.deactivated).toBe(true);

    fetchHistory.mockImplementation(historyOf(stored));
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
    const { connection, stomp } = open({ fetchHistory });
    stomp.last().connectAndConfirm();
    await vi.advanceTimersByTimeAsync(0);
    connection.close();
    await vi.advanceTimersByTimeAsync(60_000);
    expect(fetchHistory).toHaveBeenCalledTimes(1);
  });

  it('deactivates the live client on close', () => {
    const { connection, stomp } = open();
    stomp.last().connect();
    connection.close();
    expect(stomp.last().deactivated).toBe(true);
  });
});
