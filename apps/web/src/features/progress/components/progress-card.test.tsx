import { screen, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { setTokens } from '../../../lib/auth-tokens.ts';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { classProgress, sessionProgress } from '../test/progress-fixtures.ts';
import { ClassProgressLine } from './class-progress-line.tsx';
import { ProgressCard } from './progress-card.tsx';
import { StudentsProgressCard } from './students-progress-card.tsx';

beforeEach(() => {
  setTokens({ accessToken: 'a', refreshToken: 'r' });
});

afterEach(() => {
  vi.unstubAllGlobals();
  vi.restoreAllMocks();
});

describe('progress', { timeout: 15_000 }, () => {
  it("shows the student's class total and each replay, and '이어보기' opens the replay to go on with", async () => {
    mockFetch([{ url: '/api/classes/7/progress', respond: () => ({ body: envelope(classProgress()) }) }]);
    const { router } = renderWithProviders(<ProgressCard classId={7} />);
    const total = await screen.findByRole('progressbar', { name: '이 강의의 진도율' });
    expect(total).toHaveAttribute('aria-valuenow', '50');
    expect(screen.getByText('다시보기 3개 중 1개 완료')).toBeInTheDocument();
    expect(screen.getByRole('progressbar', { name: '2강 진도율' })).toHaveAttribute('aria-valuenow', '55');
    const items = screen.getAllByRole('listitem').map((item) => item.textContent);
    expect(items).toEqual(['1강완료', '2강55%', '3강0%']);
    await userEvent.click(screen.getByRole('button', { name: '2강 이어보기' }));
    expect(router.state.location.pathname).toBe('/dashboard/student/7/replays/2');
  });

  it("says when there is no replay yet, and a card's line in '내 강의실' names its class", async () => {
    mockFetch([
      {
        url: '/api/classes/7/progress',
        respond: () => ({ body: envelope({ class_percent: 0, sessions: [] }) }),
      },
      {
        url: '/api/classes/8/progress',
        respond: () => ({
          body: envelope({ class_percent: 0, sessions: [sessionProgress({ session_id: 4 })] }),
        }),
      },
    ]);
    renderWithProviders(
      <>
        <ProgressCard classId={7} />
        <ClassProgressLine classId={8} className="파도 읽기" />
      </>,
    );
    expect(await screen.findByText('아직 볼 수 있는 다시보기가 없어요.')).toBeInTheDocument();
    const line = await screen.findByRole('progressbar', { name: '파도 읽기 진도율' });
    expect(line).toHaveAttribute('aria-valuenow', '0');
    expect(screen.getByRole('button', { name: /이어보기$/ })).toBeInTheDocument();
  });

  it("shows the teacher each student's progress, and says so when it cannot load", async () => {
    mockFetch([
      {
        url: '/api/classes/7/progress',
        respond: () => ({
          body: envelope({
            students: [
              { user_id: 'a', nickname: '게', ...classProgress() },
              {
                user_id: 'b',
                nickname: '물범',
                class_percent: 0,
                sessions: [sessionProgress({ session_id: 1 })],
              },
            ],
          }),
        }),
      },
      {
        url: '/api/classes/9/progress',
        respond: () => ({ status: 418, body: errorEnvelope(418, 'I am a teapot', '권한이 없어요.') }),
      },
    ]);
    renderWithProviders(
      <>
        <StudentsProgressCard classId={7} />
        <StudentsProgressCard classId={9} />
      </>,
    );
    const table = await screen.findByRole('table');
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows.map((row) => row.textContent)).toEqual(['게50%1 / 3', '물범0%0 / 1']);
    expect(within(table).getByRole('progressbar', { name: '게 진도율' })).toHaveAttribute(
      'aria-valuenow',
      '50',
    );
    expect(await screen.findByRole('alert')).toHaveTextContent('진도율을 불러오지 못했어요.');
  });
});
