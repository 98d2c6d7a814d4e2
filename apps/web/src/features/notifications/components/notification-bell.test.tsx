import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { useQuery } from '@tanstack/react-query';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { classKeys } from '../../../lib/class-keys.ts';
import { setTokens } from '../../../lib/auth-tokens.ts';
import { envelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { NotificationBell } from './notification-bell.tsx';
import { notice } from '../test/notification-fixtures.ts';

beforeEach(() => {
  setTokens({ accessToken: 'a', refreshToken: 'r' });
  // The stream is not served here (its own tests use a fake server): its retries only warn.
  vi.spyOn(console, 'warn').mockImplementation(() => undefined);
});
afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('NotificationBell', () => {
  it('shows the unread count and the notices; a live notice enters the room and is marked read', async () => {
    const read: unknown[] = [];
    mockFetch([
      {
        url: '/api/notifications?page=0',
        respond: () => ({
          body: envelope({
            items: [
              notice(3, {}),
              notice(2, { kind: 'enrolment', nickname: '새내기', read: true }),
              notice(1, { kind: 'review_reply', read: true }),
            ],
            unread_count: 1,
          }),
        }),
      },
      {
        method: 'POST',
        url: '/api/notifications/read',
        respond: async (request) => {
          read.push(await request.json());
          return { body: envelope({ unread_count: 0 }) };
        },
      },
      { url: '/api/notifications/stream', respond: () => ({ status: 503 }) },
    ]);
    const { router } = renderWithProviders(<NotificationBell />, {
      routes: [{ path: '/live/student/:classId', element: <p>라이브 강의실</p> }],
    });
    const bell = await screen.findByRole('button', { name: '알림 1개 읽지 않음' });
    await userEvent.click(bell);
    const menu = await screen.findByRole('menu');
    const texts = within(menu)
      .getAllByRole('menuitem')
      .map((item) => item.textContent ?? '');
    expect(texts[0]).toContain('모두 읽음');
    expect(texts.slice(1).map((text) => text.replace(/\d+월.*?(오전|오후) [\d:]+/u, ''))).toEqual([
      '‘바다 수채화’ 강의가 라이브를 시작했어요.입장하기',
      '새내기님이 ‘바다 수채화’ 강의를 수강 신청했어요.',
      '‘바다 수채화’ 강사님이 내 수강평에 답글을 달았어요.',
    ]);
    expect(within(menu).getByText('모두 읽음')).toBeInTheDocument();
    const live = within(menu).getByRole('menuitem', { name: /라이브를 시작했어요.*입장하기/ });
    await userEvent.click(live);
    await waitFor(() => expect(router.state.location.pathname).toBe('/live/student/7'));
    await waitFor(() => expect(read).toEqual([{ ids: [3] }]));
  });

  it('a go-live notice arriving live is a door: 입장하기, it stays, and the class lists refresh', async () => {
    vi.useFakeTimers({ shouldAdvanceTime: true });
    let controller!: ReadableStreamDefaultController<Uint8Array>;
    const stream = new ReadableStream<Uint8Array>({ start: (c) => (controller = c) });
    let liveListAsked = 0;
    const { spy: tableFetch } = mockFetch([
      {
        url: '/api/notifications?page=0',
        respond: () => ({ body: envelope({ items: [], unread_count: 0 }) }),
      },
      {
        method: 'POST',
        url: '/api/notifications/read',
        respond: () => ({ body: envelope({ unread_count: 0 }) }),
      },
    ]);
    vi.stubGlobal('fetch', async (input: RequestInfo | URL, init?: RequestInit) =>
      String(input).includes('/api/notifications/stream')
        ? new Response(stream, { status: 200 })
        : tableFetch(input, init),
    );
    function LiveList() {
      useQuery({
        queryKey: classKeys.livePreview(),
        queryFn: async () => {
          liveListAsked += 1;
          return [];
        },
      });
      return null;
    }
    const { router } = renderWithProviders(
      <>
        <NotificationBell />
        <LiveList />
      </>,
      { routes: [{ path: '/live/student/:classId', element: <p>라이브 강의실</p> }] },
    );
    await waitFor(() => expect(liveListAsked).toBe(1));
    controller.enqueue(
      new TextEncoder().encode(`event: notification\ndata: ${JSON.stringify(notice(9))}\n\n`),
    );
    const toast = await screen.findByRole('status');
    expect(toast).toHaveTextContent('‘바다 수채화’ 강의가 라이브를 시작했어요.');
    await waitFor(() => expect(liveListAsked).toBe(2));
    // Still there a minute later: it waits to be taken or closed.
    await vi.advanceTimersByTimeAsync(60_000);
    expect(screen.getByRole('status')).toBeInTheDocument();
    await userEvent.click(within(toast).getByRole('button', { name: '입장하기' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/live/student/7'));
    expect(screen.queryByRole('status')).not.toBeInTheDocument();
    vi.useRealTimers();
  });
});
