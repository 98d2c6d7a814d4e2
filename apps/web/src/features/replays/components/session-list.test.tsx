import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import type { SessionItem } from '@sea/contract/sessions';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { SESSIONS_MAX_POLLS, SESSIONS_REFRESH_MS, sessionsRefetchInterval } from '../api/get-sessions.ts';
import { sessionItem } from '../../../testing/session-fixtures.ts';
import { SessionList } from './session-list.tsx';
import { signedInPerTest } from '../../../testing/signed-in.ts';

const sessions: SessionItem[] = [
  sessionItem(6, { state: 'recording', progress: 0, hls_url: null, mp4_url: null }, { ended_at: null }),
  sessionItem(5, { state: 'processing', progress: 42, hls_url: null, mp4_url: null }),
  sessionItem(4, { title: '파도 읽기 1강' }),
  sessionItem(3, { state: 'none', progress: 0, hls_url: null, mp4_url: null }),
  sessionItem(2, {
    state: 'failed',
    progress: 0,
    hls_url: null,
    mp4_url: null,
    error: '녹화 파일을 찾을 수 없어 다시보기를 만들 수 없어요.',
  }),
  sessionItem(1, { hidden: true }),
];

function renderList(role: 'teacher' | 'student', items: SessionItem[] = sessions) {
  let current = items;
  const fetchMock = mockFetch([
    { url: '/api/classes/7/sessions', respond: () => ({ body: envelope(current) }) },
    {
      method: 'PATCH',
      url: /^\/api\/classes\/7\/sessions\/\d+$/,
      respond: async (request) => {
        const id = Number(new URL(request.url).pathname.split('/').at(-1));
        const patch = (await request.json()) as { title?: string | null; hidden?: boolean };
        current = current.map((item) =>
          item.id === id ? { ...item, recording: { ...item.recording, ...patch } } : item,
        );
        return { body: envelope(current.find((item) => item.id === id)) };
      },
    },
    {
      method: 'POST',
      url: /^\/api\/classes\/7\/sessions\/\d+\/remake$/,
      respond: (request) => {
        const id = Number(new URL(request.url).pathname.split('/').at(-2));
        current = current.map((item) =>
          item.id === id
            ? { ...item, recording: { ...item.recording, state: 'processing', progress: 0, error: null } }
            : item,
        );
        return { body: envelope(current.find((item) => item.id === id)) };
      },
    },
    {
      method: 'DELETE',
      url: /^\/api\/classes\/7\/sessions\/\d+$/,
      respond: (request) => {
        const id = Number(new URL(request.url).pathname.split('/').at(-1));
        current = current.map((item) =>
          item.id === id
            ? { ...item, recording: { ...item.recording, state: 'none', hls_url: null, mp4_url: null } }
            : item,
        );
        return { body: envelope(null) };
      },
    },
  ]);
  const rendered = renderWithProviders(<SessionList classId={7} role={role} />, {
    route: `/dashboard/${role}/7`,
  });
  return { ...rendered, ...fetchMock };
}

function row(name: RegExp | string): HTMLElement {
  const item = screen.getByText(name).closest('li');
  if (item === null) throw new Error(`no row for ${String(name)}`);
  return item;
}

signedInPerTest();

describe('session list', { timeout: 15_000 }, () => {
  it('labels each state and links a ready replay', async () => {
    renderList('student');
    const list = await screen.findByRole('region', { name: '다시보기' });
    expect(await within(list).findAllByRole('listitem')).toHaveLength(6);
    expect(within(row(/2026년 11월 16일/)).getByText('녹화 중')).toBeInTheDocument();
    expect(within(row(/2026년 11월 16일/)).getByText('진행 중')).toBeInTheDocument();
    const processing = row(/2026년 11월 15일/);
    expect(within(processing).getByText('처리 중 42%')).toBeInTheDocument();
    expect(within(processing).getByRole('progressbar')).toHaveAttribute('aria-valuenow', '42');
    expect(
      within(row('파도 읽기 1강')).getByRole('link', { name: '파도 읽기 1강 다시보기' }),
    ).toHaveAttribute('href', '/dashboard/student/7/replays/4');
    expect(within(row('파도 읽기 1강')).getByText(/45분 진행/)).toBeInTheDocument();
    expect(within(row(/2026년 11월 13일/)).getByText('녹화 안 함')).toBeInTheDocument();
    const failed = row(/2026년 11월 12일/);
    expect(within(failed).getByText('처리 실패')).toBeInTheDocument();
    expect(
      within(failed).getByText('녹화 파일을 찾을 수 없어 다시보기를 만들 수 없어요.'),
    ).toBeInTheDocument();
    expect(within(list).queryByRole('button')).not.toBeInTheDocument();
  });

  it('says so when there is no session yet, and when the list cannot be loaded', async () => {
    renderList('student', []);
    expect(await screen.findByText('아직 진행한 라이브 강의가 없어요.')).toBeInTheDocument();
    vi.unstubAllGlobals();
    mockFetch([
      {
        url: '/api/classes/7/sessions',
        respond: () => ({ status: 500, body: errorEnvelope(500, 'Internal Server Error') }),
      },
    ]);
    renderWithProviders(<SessionList classId={7} role="student" />);
    expect(await screen.findByRole('alert')).toHaveTextContent('다시보기 목록을 불러오지 못했어요.');
  });

  it('lets the teacher rename a replay; a blank title goes back to the date', async () => {
    const { calls } = renderList('teacher');
    await screen.findAllByRole('listitem');
    const ready = row('파도 읽기 1강');
    expect(within(ready).queryByText('숨김')).not.toBeInTheDocument();
    await userEvent.click(within(ready).getByRole('button', { name: '이름 바꾸기' }));
    const field = within(ready).getByRole('textbox', { name: '다시보기 제목' });
    expect(field).toHaveValue('파도 읽기 1강');
    await userEvent.clear(field);
    await userEvent.type(field, '  파도 읽기 첫 시간 ');
    await userEvent.click(within(ready).getByRole('button', { name: '저장' }));
    expect(await screen.findByText('파도 읽기 첫 시간')).toBeInTheDocument();
    expect(await screen.findByText('다시보기 제목을 바꿨어요.')).toBeInTheDocument();

    await userEvent.click(within(row('파도 읽기 첫 시간')).getByRole('button', { name: '이름 바꾸기' }));
    await userEvent.clear(screen.getByRole('textbox', { name: '다시보기 제목' }));
    await userEvent.click(screen.getByRole('button', { name: '저장' }));
    await waitFor(() => expect(screen.queryByText('파도 읽기 첫 시간')).not.toBeInTheDocument());
    const patches = await Promise.all(
      calls.filter((call) => call.method === 'PATCH').map((call) => call.clone().json() as Promise<unknown>),
    );
    expect(patches).toEqual([{ title: '파도 읽기 첫 시간' }, { title: null }]);
  });

  it('lets the teacher hide and show a replay again', async () => {
    renderList('teacher');
    await screen.findAllByRole('listitem');
    const hidden = row(/2026년 11월 11일/);
    expect(within(hidden).getByText('숨김')).toBeInTheDocument();
    await userEvent.click(within(hidden).getByRole('button', { name: '다시 보이기' }));
    expect(await screen.findByText('다시보기를 수강생에게 다시 보여 줘요.')).toBeInTheDocument();
    await waitFor(() => expect(within(row(/2026년 11월 11일/)).queryByText('숨김')).not.toBeInTheDocument());
    await userEvent.click(within(row(/2026년 11월 11일/)).getByRole('button', { name: '숨기기' }));
    expect(await within(row(/2026년 11월 11일/)).findByText('숨김')).toBeInTheDocument();
  });

  it('deletes a replay only after the confirmation', async () => {
    const { calls } = renderList('teacher');
    await screen.findAllByRole('listitem');
    await userEvent.click(within(row('파도 읽기 1강')).getByRole('button', { name: '삭제' }));
    const dialog = await screen.findByRole('alertdialog', { name: '다시보기를 삭제할까요?' });
    expect(dialog).toHaveTextContent("'파도 읽기 1강' 다시보기의 영상 파일이 모두 지워져요.");
    await userEvent.click(within(dialog).getByRole('button', { name: '취소' }));
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await userEvent.click(within(row('파도 읽기 1강')).getByRole('button', { name: '삭제' }));
    await userEvent.click(await screen.findByRole('button', { name: '삭제하기' }));
    expect(await screen.findByText('다시보기를 삭제했어요.')).toBeInTheDocument();
    await waitFor(() => expect(within(row('파도 읽기 1강')).getByText('녹화 안 함')).toBeInTheDocument());
    expect(
      calls.filter((call) => call.method === 'DELETE').map((call) => new URL(call.url).pathname),
    ).toEqual(['/api/classes/7/sessions/4']);
  });

  it('offers 다시 만들기 on a failed replay only, and says the gaps of a ready one', async () => {
    const items = [
      ...sessions,
      sessionItem(8, { title: '빈틈 있는 강의', gaps: [{ from_s: 750, until_s: 1_085, at_s: 750 }] }),
    ];
    const { calls } = renderList('teacher', items);
    await screen.findAllByRole('listitem');
    expect(within(row('빈틈 있는 강의')).getByText('녹화되지 않은 구간: 12:30-18:05')).toBeInTheDocument();
    expect(
      within(row('파도 읽기 1강')).queryByRole('button', { name: '다시 만들기' }),
    ).not.toBeInTheDocument();
    const failed = row(/녹화 파일을 찾을 수 없어/);
    await userEvent.click(within(failed).getByRole('button', { name: '다시 만들기' }));
    expect(await screen.findByText('다시보기를 다시 만들고 있어요.')).toBeInTheDocument();
    expect(calls.filter((call) => call.method === 'POST').map((call) => new URL(call.url).pathname)).toEqual([
      '/api/classes/7/sessions/2/remake',
    ]);
  });

  it('has no tools for a session without a replay or still recording', async () => {
    renderList('teacher');
    await screen.findAllByRole('listitem');
    expect(within(row(/2026년 11월 16일/)).queryByRole('button')).not.toBeInTheDocument();
    expect(within(row(/2026년 11월 13일/)).queryByRole('button')).not.toBeInTheDocument();
  });
});

describe('sessionsRefetchInterval', () => {
  it('polls while a session records or processes, and stops when all are settled or after the bound', () => {
    expect(sessionsRefetchInterval(sessions, 1)).toBe(SESSIONS_REFRESH_MS);
    expect(sessionsRefetchInterval([sessionItem(5, { state: 'processing', progress: 3 })], 1)).toBe(
      SESSIONS_REFRESH_MS,
    );
    expect(sessionsRefetchInterval([sessionItem(4), sessionItem(3, { state: 'failed' })], 1)).toBe(false);
    expect(sessionsRefetchInterval(undefined, 0)).toBe(false);
    expect(sessionsRefetchInterval(sessions, SESSIONS_MAX_POLLS)).toBe(false);
  });
});
