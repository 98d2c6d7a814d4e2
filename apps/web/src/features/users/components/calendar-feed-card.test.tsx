import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTokens } from '../../../lib/auth-tokens.ts';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { CalendarFeedCard } from './calendar-feed-card.tsx';

const OLD = 'http://localhost:5000/api/calendar/old.ics';
const NEW = 'http://localhost:5000/api/calendar/new.ics';
const feed = (url: string) => ({ url, webcal_url: url.replace('http:', 'webcal:') });

beforeEach(() => {
  setTokens({ accessToken: 'a', refreshToken: 'r' });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('the calendar feed card', { timeout: 15_000 }, () => {
  it('shows the feed URL, copies it, and resets it after asking', async () => {
    const { calls } = mockFetch([
      { url: '/api/users/calendar-url', respond: () => ({ body: envelope(feed(OLD)) }) },
      {
        method: 'POST',
        url: '/api/users/calendar-url/reset',
        respond: () => ({ body: envelope(feed(NEW)) }),
      },
    ]);
    const copied: string[] = [];
    const user = userEvent.setup();
    vi.spyOn(navigator.clipboard, 'writeText').mockImplementation((text: string) => {
      copied.push(text);
      return Promise.resolve();
    });
    renderWithProviders(<CalendarFeedCard />);
    const input = await screen.findByRole('textbox', { name: '내 캘린더 구독 주소' });
    expect(input).toHaveValue(OLD);
    await user.click(screen.getByRole('button', { name: '복사' }));
    expect(copied).toEqual([OLD]);
    expect(await screen.findByText('캘린더 주소를 복사했어요.')).toBeInTheDocument();

    await user.click(screen.getByRole('button', { name: '주소 새로 만들기' }));
    await user.click(await screen.findByRole('button', { name: '새로 만들기' }));
    await waitFor(() => expect(input).toHaveValue(NEW));
    expect(calls.filter((call) => call.method === 'POST')).toHaveLength(1);
  });

  it('says so when the URL cannot be loaded', async () => {
    mockFetch([
      { url: '/api/users/calendar-url', respond: () => ({ status: 418, body: errorEnvelope(418, 'x') }) },
    ]);
    renderWithProviders(<CalendarFeedCard />);
    expect(await screen.findByRole('alert')).toHaveTextContent('캘린더 주소를 불러오지 못했어요.');
  });
});
