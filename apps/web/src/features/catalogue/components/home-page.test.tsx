import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { errorEnvelope, listEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { classItem } from '../test-classes.ts';
import { HomePage } from './home-page.tsx';

afterEach(() => {
  vi.unstubAllGlobals();
});

describe('HomePage', () => {
  it('says the live classes failed to load, with 다시 시도, instead of claiming there are none', async () => {
    let liveReachable = false;
    mockFetch([
      { url: /^\/api\/classes\?.*target=topten/, respond: () => ({ body: listEnvelope([classItem(1)], 1) }) },
      {
        url: /^\/api\/classes\?.*target=live/,
        respond: () =>
          liveReachable
            ? {
                body: listEnvelope(
                  [classItem(4, { is_active: true, live_viewer_count: 5, live_started_at: null })],
                  1,
                ),
              }
            : { status: 503, body: errorEnvelope(503, 'unavailable') },
      },
    ]);
    renderWithProviders(<HomePage />, { route: '/', path: '/' });
    const live = screen.getByRole('region', { name: /지금 라이브 중인 강의/ });
    const alert = await within(live).findByRole('alert');
    expect(alert).toHaveTextContent('강의 목록을 불러오지 못했어요.');
    expect(within(live).queryByText('아직 강의가 없어요')).not.toBeInTheDocument();
    liveReachable = true;
    await userEvent.click(within(alert).getByRole('button', { name: '다시 시도' }));
    expect(await within(live).findByRole('link', { name: /강의 4/ })).toBeInTheDocument();
    expect(within(live).getByRole('article')).toHaveTextContent('시청 중 5명');
    expect(within(live).queryByRole('alert')).not.toBeInTheDocument();
  });
});
