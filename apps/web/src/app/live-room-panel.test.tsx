import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { DEFAULT_CHAT_AVATARS } from '../lib/default-images.ts';
import { formatTimeOfDay } from '../lib/format-date-time.ts';
import { RoomConnection } from '../lib/realtime/room-connection.ts';
import { hashIndex } from '../lib/string-hash.ts';
import { chatMessage, fakeStompFactory } from '../testing/fake-stomp.ts';
import { renderWithProviders } from '../testing/render.tsx';
import { CLASS_ID, connect, roomServerPerTest, renderPanel } from './test/room-panel.tsx';
import { question } from '../testing/classroom-fixtures.ts';
import { LiveRoomPanel } from './live-room-panel.tsx';

const data = roomServerPerTest();

const list = (): HTMLElement => screen.getByRole('list', { name: '채팅 메시지' });
/** The chat's messages, without the date lines above each day's first message. */
const messageItems = (): HTMLElement[] =>
  within(list())
    .getAllByRole('listitem')
    .filter((item) => !item.hasAttribute('data-day'));

describe('LiveRoomPanel: the chat', () => {
  it('shows the history with writers, default avatars, the anonymous fallback, times and my own messages', async () => {
    const { stomp } = renderPanel(data);
    await connect(stomp);
    const items = messageItems();
    expect(items).toHaveLength(3);

    const [teacherItem, anonymousItem, mineItem] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(teacherItem).getByText('고래선생')).toBeInTheDocument();
    // The teacher's badge; nobody else has one.
    expect(within(teacherItem).getByText('강사')).toBeInTheDocument();
    expect(within(anonymousItem).queryByText('강사')).toBeNull();
    expect(teacherItem.querySelector('img')?.getAttribute('src')).toBe(
      DEFAULT_CHAT_AVATARS[hashIndex('고래선생', 3)],
    );
    expect(
      within(teacherItem).getByText(formatTimeOfDay(data.history[0]?.createdDate ?? '')),
    ).toBeInTheDocument();
    expect(within(anonymousItem).getByText('익명')).toBeInTheDocument();
    expect(anonymousItem.querySelector('img')?.getAttribute('src')).toBe(
      DEFAULT_CHAT_AVATARS[hashIndex('익명', 3)],
    );
    await waitFor(() => expect(within(mineItem).getByText('내 메시지')).toBeInTheDocument());
    expect(mineItem).toHaveAttribute('data-mine', 'true');
    expect(teacherItem).not.toHaveAttribute('data-mine');
  });

  it('formats the time as hour and minute', () => {
    expect(formatTimeOfDay('2026-11-21T06:05:00.000Z')).toMatch(/\d{1,2}:05/);
    expect(formatTimeOfDay('nonsense')).toBe('');
  });

  it('sends on Enter, makes a new line on Shift+Enter, and disables sending while disconnected', async () => {
    const user = userEvent.setup();
    const { stomp } = renderPanel(data);
    const input = screen.getByRole('textbox', { name: '보낼 메시지' });
    const send = screen.getByRole('button', { name: '보내기' });
    expect(screen.getByRole('status')).toHaveTextContent('연결 중');
    expect(send).toBeDisabled();

    await connect(stomp);
    expect(screen.getByRole('status')).toHaveTextContent('연결됨');
    await user.type(input, '첫 줄{Shift>}{Enter}{/Shift}둘째 줄');
    expect(input).toHaveValue('첫 줄\n둘째 줄');
    expect(stomp.last().published).toEqual([]);
    await user.keyboard('{Enter}');
    expect(stomp.last().published).toEqual([
      { destination: '/app/hello', body: { roomId: CLASS_ID, content: '첫 줄\n둘째 줄' } },
    ]);
    expect(input).toHaveValue('');

    await act(async () => stomp.last().drop());
    expect(screen.getByRole('status')).toHaveTextContent('연결 끊김');
    await user.type(input, '끊긴 동안{Enter}');
    expect(stomp.last().published).toHaveLength(1);
    expect(input).toHaveValue('끊긴 동안');
    expect(send).toBeDisabled();
  });

  it('shows the server refusal of my message', async () => {
    const { stomp } = renderPanel(data);
    await connect(stomp);
    await act(async () =>
      stomp
        .last()
        .refuse({ code: 'too-long', message: '메시지는 1,000자까지 보낼 수 있어요.', receipt: null }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('1,000자까지');
  });

  it('follows new messages at the bottom but does not yank a reader who scrolled up', async () => {
    const { stomp } = renderPanel(data);
    await connect(stomp);
    const element = list();
    let scrollHeight = 1000;
    Object.defineProperty(element, 'scrollHeight', { configurable: true, get: () => scrollHeight });
    Object.defineProperty(element, 'clientHeight', { configurable: true, get: () => 200 });

    // At the bottom: a new message scrolls along.
    element.scrollTop = 800;
    element.dispatchEvent(new Event('scroll'));
    scrollHeight = 1100;
    await act(async () => stomp.last().deliver(CLASS_ID, chatMessage({ id: 10, content: '따라가요' })));
    expect(element.scrollTop).toBe(1100);

    // Scrolled up to read: the position stays, and a button offers the newest message.
    element.scrollTop = 100;
    element.dispatchEvent(new Event('scroll'));
    scrollHeight = 1200;
    await act(async () => stomp.last().deliver(CLASS_ID, chatMessage({ id: 11, content: '그대로예요' })));
    expect(element.scrollTop).toBe(100);
    const jump = screen.getByRole('button', { name: '새 메시지 보기' });
    await userEvent.click(jump);
    expect(element.scrollTop).toBe(1200);
    expect(screen.queryByRole('button', { name: '새 메시지 보기' })).not.toBeInTheDocument();
  });

  it('closes the connection when the panel is left', async () => {
    const stomp = fakeStompFactory();
    const createConnection = (classId: number) =>
      new RoomConnection({
        classId,
        url: 'ws://x/ws',
        getToken: () => null,
        fetchHistory: async () => [],
        createClient: stomp.factory,
      });
    const { unmount } = renderWithProviders(
      <LiveRoomPanel classId={CLASS_ID} createConnection={createConnection} />,
    );
    await waitFor(() => expect(stomp.clients.length).toBeGreaterThan(0));
    unmount();
    expect(stomp.clients.every((client) => client.deactivated)).toBe(true);
  });

  it('shows after a reconnect neither the message nor the question deleted while it was offline', async () => {
    data.questions = [question({ id: 1, content: '남을 질문' }), question({ id: 2, content: '지워질 질문' })];
    const { stomp } = renderPanel(data, 'student', 20);
    await connect(stomp);
    await userEvent.click(await screen.findByRole('tab', { name: '질문 2' }));
    await screen.findByText('지워질 질문');

    await act(async () => stomp.last().drop());
    // While this client is away the teacher deletes one message and one question; nobody tells it live.
    data.history = data.history.filter((message) => message.id !== 2);
    data.questions = [question({ id: 1, content: '남을 질문' })];
    await waitFor(() => expect(stomp.clients).toHaveLength(2));
    await act(async () => stomp.last().connectAndConfirm());

    await screen.findByRole('tab', { name: '질문 1' });
    expect(screen.queryByText('지워질 질문')).not.toBeInTheDocument();
    await userEvent.click(screen.getByRole('tab', { name: '채팅' }));
    await waitFor(() => expect(messageItems()).toHaveLength(2));
    expect(screen.queryByText('탈퇴한 사람의 말')).not.toBeInTheDocument();
  });

  it('shows a joining student the slow mode and their own mute the server tells on subscribing', async () => {
    const { stomp } = renderPanel(data);
    await connect(stomp);
    const moderation = (body: unknown) =>
      act(async () => stomp.last().subscriptions.get('/topic/moderation/7')?.(JSON.stringify(body)));
    expect(screen.queryByText(/천천히 모드/)).not.toBeInTheDocument();
    const until = new Date(Date.now() + 1_500).toISOString();
    await moderation({ type: 'slowMode', roomId: CLASS_ID, seconds: 30 });
    await moderation({ type: 'muted', roomId: CLASS_ID, userId: 'me', until });
    expect(screen.getByText('천천히 모드: 30초에 한 번씩 보낼 수 있어요.')).toBeInTheDocument();
    // Someone else's mute is not mine.
    await moderation({ type: 'muted', roomId: CLASS_ID, userId: 'other', until });
    await waitFor(() =>
      expect(
        screen.getByText('강사가 채팅과 질문을 잠시 막았어요. 2초 후에 다시 쓸 수 있어요.'),
      ).toBeInTheDocument(),
    );
    // The mute runs out by itself; slow mode lasts until the teacher turns it off.
    await waitFor(() => expect(screen.queryByText(/잠시 막았어요/)).not.toBeInTheDocument(), {
      timeout: 3_000,
    });
    await moderation({ type: 'slowMode', roomId: CLASS_ID, seconds: 0 });
    expect(screen.queryByText(/천천히 모드/)).not.toBeInTheDocument();
  });

  it('a muted student keeps what they typed, in a box that waits with the time left', async () => {
    const { stomp } = renderPanel(data);
    await connect(stomp);
    const box = screen.getByRole('textbox', { name: '보낼 메시지' });
    await userEvent.type(box, '쓰던 말');
    const until = new Date(Date.now() + 125_000).toISOString();
    await act(async () =>
      stomp.last().subscriptions.get('/topic/moderation/7')?.(
        JSON.stringify({ type: 'muted', roomId: CLASS_ID, userId: 'me', until }),
      ),
    );
    expect(box).toBeDisabled();
    expect(box).toHaveValue('쓰던 말');
    expect(box.getAttribute('placeholder')).toMatch(/^2분 \d+초 후에 다시 쓸 수 있어요$/);
    expect(
      screen.getByText(/강사가 채팅과 질문을 잠시 막았어요\. 2분 \d+초 후에 다시 쓸 수 있어요\./),
    ).toBeInTheDocument();
    // The teacher lifts it: the box opens with the text still in it.
    await act(async () =>
      stomp.last().subscriptions.get('/topic/moderation/7')?.(
        JSON.stringify({ type: 'muted', roomId: CLASS_ID, userId: 'me', until: null }),
      ),
    );
    expect(box).toBeEnabled();
    expect(box).toHaveValue('쓰던 말');
  });

  it('the teacher confirms a mute with its length, sees who is muted and lifts it', async () => {
    data.history.push(
      chatMessage({ id: 4, writer: '해파리', writer_id: 'jelly', role: 'student', content: '도배 도배' }),
    );
    const { stomp } = renderPanel(data, 'teacher');
    await connect(stomp);
    const item = (await screen.findByText('도배 도배')).closest('li') as HTMLElement;
    await userEvent.click(within(item).getByRole('button', { name: '채팅 금지' }));
    const dialog = await screen.findByRole('alertdialog', { name: '해파리님의 채팅을 잠시 막을까요?' });
    expect(within(dialog).getByRole('radio', { name: '5분' })).toBeChecked();
    await userEvent.click(within(dialog).getByRole('radio', { name: '10분' }));
    await userEvent.click(within(dialog).getByRole('button', { name: '채팅 금지' }));
    expect(stomp.last().published.at(-1)).toEqual({
      destination: '/app/chat/mute',
      body: { roomId: CLASS_ID, userId: 'jelly', minutes: 10 },
    });
    const until = new Date(Date.now() + 600_000).toISOString();
    await act(async () =>
      stomp.last().subscriptions.get('/topic/moderation/7')?.(
        JSON.stringify({ type: 'muted', roomId: CLASS_ID, userId: 'jelly', until }),
      ),
    );
    const muted = screen.getByRole('region', { name: '채팅 금지 중' });
    expect(muted).toHaveTextContent(/해파리 · (10분|9분 \d+초) 남음/);
    await userEvent.click(within(muted).getByRole('button', { name: '해파리님의 채팅 금지 해제' }));
    expect(stomp.last().published.at(-1)).toEqual({
      destination: '/app/chat/mute',
      body: { roomId: CLASS_ID, userId: 'jelly', minutes: 0 },
    });
  });

  it("shows the teacher the room's current slow mode in the selector", async () => {
    const { stomp } = renderPanel(data, 'teacher');
    await connect(stomp);
    await act(async () =>
      stomp.last().subscriptions.get('/topic/moderation/7')?.(
        JSON.stringify({ type: 'slowMode', roomId: CLASS_ID, seconds: 30 }),
      ),
    );
    expect(screen.getByRole('combobox', { name: '천천히 모드' })).toHaveValue('30');
  });
});
