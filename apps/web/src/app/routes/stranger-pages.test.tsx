import { screen, waitFor } from '@testing-library/react';
import { describe, expect, it, vi } from 'vitest';
import { LiveServicesContext } from '../../features/live/live-services.ts';
import { fakeLiveServices } from '../../features/live/test/fake-live-services.ts';
import { envelope, errorEnvelope, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { signedInPerTest } from '../../testing/signed-in.ts';
import { Component as StudentRoom } from './live-student.tsx';
import { Component as StudentReplay } from './replay-student.tsx';

signedInPerTest();

const pathsOf = (calls: Request[]) => calls.map((call) => new URL(call.url).pathname);

/** Console errors and warnings while `run` runs (a quiet console logs neither). */
async function logged(run: () => Promise<void>): Promise<unknown[][]> {
  const spies = [vi.spyOn(console, 'error'), vi.spyOn(console, 'warn')];
  try {
    await run();
    return spies.flatMap((spy) => spy.mock.calls);
  } finally {
    spies.forEach((spy) => spy.mockRestore());
  }
}

// Issue 32 item 19: a signed-in stranger's visit asks the class's role first and nothing that would be refused.
describe('pages for the class’s members, visited by a stranger', () => {
  it('the live room leaves for the class introduction with the notice, without a ticket or sessions', async () => {
    const { calls } = mockFetch([
      { url: '/api/classes/7/role', respond: () => ({ body: envelope('관계없음') }) },
    ]);
    const fakes = fakeLiveServices();
    const lines = await logged(async () => {
      const { router } = renderWithProviders(
        <LiveServicesContext.Provider value={fakes.services}>
          <StudentRoom />
        </LiveServicesContext.Provider>,
        {
          route: '/live/student/7',
          path: '/live/student/:classId',
          routes: [{ path: '/lecture/info/:classId', element: <p>강의 소개</p> }],
        },
      );
      await waitFor(() => expect(router.state.location.pathname).toBe('/lecture/info/7'));
      expect(await screen.findByText('강의에 접근할 권한이 없어요.')).toBeInTheDocument();
    });
    expect(fakes.services.connect).not.toHaveBeenCalled();
    expect(pathsOf(calls)).toEqual(['/api/classes/7/role']);
    expect(lines).toEqual([]);
  });

  it('a replay says it is for the class’s teacher and students, without asking for it', async () => {
    const { calls } = mockFetch([
      { url: '/api/classes/7/role', respond: () => ({ body: envelope('관계없음') }) },
      { url: '/api/classes/7', respond: () => ({ status: 404, body: errorEnvelope(404, 'Not Found') }) },
    ]);
    const lines = await logged(async () => {
      renderWithProviders(<StudentReplay />, {
        route: '/dashboard/student/7/replays/4',
        path: '/dashboard/student/:classId/replays/:sessionId',
      });
      expect(await screen.findByRole('alert')).toHaveTextContent(
        '이 강의의 강사와 수강생만 이용할 수 있어요.',
      );
    });
    expect(screen.getByRole('link', { name: '대시보드로 돌아가기' })).toHaveAttribute(
      'href',
      '/dashboard/student/7',
    );
    expect(pathsOf(calls).filter((path) => path.includes('/sessions/'))).toEqual([]);
    expect(lines).toEqual([]);
  });
});
