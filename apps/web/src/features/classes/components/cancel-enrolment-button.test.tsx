import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTokens } from '../../../lib/auth-tokens.ts';
import { envelope, errorEnvelope, mockFetch, type MockRoute } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { classItem } from '../test/class-fixtures.ts';
import { StudentDashboardPage } from './student-dashboard-page.tsx';

beforeEach(() => setTokens({ accessToken: 'a', refreshToken: 'r' }));
afterEach(() => vi.unstubAllGlobals());

const dashboard: MockRoute = {
  url: '/api/classes/7/dashboard',
  respond: () => ({ body: envelope({ ...classItem(), role: '수강생', schedules: [] }) }),
};

function renderStudent() {
  return renderWithProviders(<StudentDashboardPage />, {
    route: '/dashboard/student/7',
    path: '/dashboard/student/:classId',
    routes: [{ path: '/classroom', element: <p>내 강의실 화면</p> }],
  });
}

describe('cancelling an enrolment from the student dashboard', () => {
  it('asks first; keeping the class sends nothing', async () => {
    const { calls } = mockFetch([dashboard]);
    renderStudent();
    await userEvent.click(await screen.findByRole('button', { name: '수강 취소' }));
    const dialog = await screen.findByRole('alertdialog', { name: '수강을 취소하시겠어요?' });
    expect(dialog).toHaveTextContent('바다에서 배우는 타입스크립트');
    await userEvent.click(screen.getByRole('button', { name: '계속 수강하기' }));
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(calls.filter((call) => call.method === 'DELETE')).toEqual([]);
  });

  it('confirmed: DELETE enroll, a notice, then my classroom', async () => {
    const { calls } = mockFetch([
      dashboard,
      { method: 'DELETE', url: '/api/classes/7/enroll', respond: () => ({ body: envelope(null) }) },
    ]);
    const { router } = renderStudent();
    await userEvent.click(await screen.findByRole('button', { name: '수강 취소' }));
    const dialog = await screen.findByRole('alertdialog');
    await userEvent.click(within(dialog).getByRole('button', { name: '수강 취소' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/classroom'));
    expect(await screen.findByText('수강을 취소했어요.')).toBeInTheDocument();
    expect(
      calls.filter((call) => call.method === 'DELETE').map((call) => new URL(call.url).pathname),
    ).toEqual(['/api/classes/7/enroll']);
  });

  it('failed: the student stays and is told', async () => {
    mockFetch([
      dashboard,
      {
        method: 'DELETE',
        url: '/api/classes/7/enroll',
        respond: () => ({ status: 418, body: errorEnvelope(418, "I'm a teapot") }),
      },
    ]);
    const { router } = renderStudent();
    await userEvent.click(await screen.findByRole('button', { name: '수강 취소' }));
    await userEvent.click(
      within(await screen.findByRole('alertdialog')).getByRole('button', { name: '수강 취소' }),
    );
    expect(await screen.findByText('수강을 취소하지 못했어요. 다시 시도해 주세요.')).toBeInTheDocument();
    expect(router.state.location.pathname).toBe('/dashboard/student/7');
  });
});
