import { act, screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ChatMessage } from '@sea/contract/chat';
import { envelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { DEFAULT_CHAT_AVATARS } from '../../../lib/default-images.ts';
import { hashIndex } from '../../../lib/string-hash.ts';
import { ChatConnection } from '../chat-connection.ts';
import { formatChatTime } from '../format-chat-time.ts';
import { chatMessage, fakeStompFactory } from '../testing/fake-stomp.ts';
import { ChatPanel } from './chat-panel.tsx';

const CLASS_ID = 7;
let history: ChatMessage[];

beforeEach(() => {
  localStorage.setItem('accessToken', 'token');
  mockFetch([
    {
      url: '/api/users',
      respond: () => ({
        body: envelope({ id: 'me', nickname: '나', email: null, profile_image_path: null }),
      }),
    },
  ]);
  history = [
    chatMessage({ id: 1, writer: '고래선생', writer_id: 'teacher', role: 'teacher', content: '안녕하세요' }),
    chatMessage({ id: 2, writer: null, writer_id: null, content: '탈퇴한 사람의 말' }),
    chatMessage({
      id: 3,
      writer: '나',
      writer_id: 'me',
      content: '제 메시지예요',
      profile_image_path: '/uploads/avatars/me.png',
    }),
  ];
});
afterEach(() => {
  vi.unstubAllGlobals();
});

function renderPanel() {
  const stomp = fakeStompFactory();
  const createConnection = (classId: number) =>
    new ChatConnection({
      classId,
      url: 'ws://127.0.0.1:1/ws',
      getToken: () => 'token',
      fetchHistory: async () => history,
      createClient: stomp.factory,
    });
  renderWithProviders(<ChatPanel classId={CLASS_ID} createConnection={createConnection} />);
  return { stomp };
}

async function connect(stomp: ReturnType<typeof fakeStompFactory>): Promise<void> {
  await waitFor(() => expect(stomp.clients.length).toBeGreaterThan(0));
  await act(async () => stomp.last().connectAndConfirm());
  await screen.findByText('안녕하세요');
}

const list = (): HTMLElement => screen.getByRole('list', { name: '채팅 메시지' });

describe('ChatPanel', () => {
  it('shows the history with writers, default avatars, the anonymous fallback, times and my own messages', async () => {
    const { stomp } = renderPanel();
    await connect(stomp);
    const items = within(list()).getAllByRole('listitem');
    expect(items).toHaveLength(3);

    const [teacherItem, anonymousItem, mineItem] = items as [HTMLElement, HTMLElement, HTMLElement];
    expect(within(teacherItem).getByText('고래선생')).toBeInTheDocument();
    // The teacher's badge; nobody else has one.
    expect(within(teacherItem).getByText('강사')).toBeInTheDocument();
    expect(within(anonymousItem).queryByText('강사')).toBeNull();
    expect(teacherItem.querySelector('img')?.getAttribute('src')).toBe(
      DEFAULT_CHAT_AVATARS[hashIndex('고래선생', 3)],
    );
    expect(within(teacherItem).getByText(formatChatTime(history[0]?.createdDate ?? ''))).toBeInTheDocument();
    expect(within(anonymousItem).getByText('익명')).toBeInTheDocument();
    expect(anonymousItem.querySelector('img')?.getAttribute('src')).toBe(
      DEFAULT_CHAT_AVATARS[hashIndex('익명', 3)],
    );
    await waitFor(() => expect(within(mineItem).getByText('내 메시지')).toBeInTheDocument());
    expect(mineItem).toHaveAttribute('data-mine', 'true');
    expect(teacherItem).not.toHaveAttribute('data-mine');
  });

  it('formats the time as hour and minute', () => {
    expect(formatChatTime('2026-11-21T06:05:00.000Z')).toMatch(/\d{1,2}:05/);
    expect(formatChatTime('nonsense')).toBe('');
  });

  it('sends on Enter, makes a new line on Shift+Enter, and disables sending while disconnected', async () => {
    const user = userEvent.setup();
    const { stomp } = renderPanel();
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
    const { stomp } = renderPanel();
    await connect(stomp);
    await act(async () =>
      stomp
        .last()
        .refuse({ code: 'too-long', message: '메시지는 1,000자까지 보낼 수 있어요.', receipt: null }),
    );
    expect(screen.getByRole('alert')).toHaveTextContent('1,000자까지');
  });

  it('follows new messages at the bottom but does not yank a reader who scrolled up', async () => {
    const { stomp } = renderPanel();
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
      new ChatConnection({
        classId,
        url: 'ws://x/ws',
        getToken: () => null,
        fetchHistory: async () => [],
        createClient: stomp.factory,
      });
    const { unmount } = renderWithProviders(
      <ChatPanel classId={CLASS_ID} createConnection={createConnection} />,
    );
    await waitFor(() => expect(stomp.clients.length).toBeGreaterThan(0));
    unmount();
    expect(stomp.clients.every((client) => client.deactivated)).toBe(true);
  });
});
