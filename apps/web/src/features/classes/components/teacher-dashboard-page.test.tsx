import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { signedInPerTest } from '../../../testing/signed-in.ts';
import { lesson, dashboard, answer, renderTeacher } from '../test/dashboard-pages.tsx';

signedInPerTest();

/** Fills the '일정 추가' form of the dashboard and submits it. */
async function addSchedule(content: string, date: string, start: string, end: string): Promise<void> {
  const form = await screen.findByRole('form', { name: '일정 추가' });
  await userEvent.type(within(form).getByLabelText(/일정 내용/), content);
  await userEvent.type(within(form).getByLabelText(/날짜/), date);
  await userEvent.type(within(form).getByLabelText(/시작 시간/), start);
  await userEvent.type(within(form).getByLabelText(/종료 시간/), end);
  await userEvent.click(within(form).getByRole('button', { name: '일정 추가' }));
}

describe('teacher dashboard', { timeout: 15_000 }, () => {
  const teacher = () => answer(dashboard({ role: '강사', student_count: 12 }));

  it('shows the student count with the student list link and the teacher actions', async () => {
    mockFetch([teacher()]);
    const { router } = renderTeacher();
    expect(await screen.findByText('수강생 12명')).toBeInTheDocument();
    expect(screen.getByRole('link', { name: '수강생 목록 보기' })).toHaveAttribute(
      'href',
      '/lecture/students/7',
    );
    await userEvent.click(screen.getByRole('button', { name: '라이브 강의 시작' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/live/teacher/7'));
    expect(router.state.location.search).toBe('');
  });

  it("keeps '강의 삭제' with '정보 수정' and '녹화하지 않기' with the start, so a wrap never orphans one", async () => {
    mockFetch([teacher()]);
    renderTeacher();
    const remove = await screen.findByRole('button', { name: '강의 삭제' });
    const pair = remove.parentElement;
    expect(pair?.children).toHaveLength(2);
    expect(within(pair as HTMLElement).getByRole('button', { name: '정보 수정' })).toBeInTheDocument();
    const start = screen.getByRole('button', { name: '라이브 강의 시작' }).parentElement;
    expect(within(start as HTMLElement).getByRole('checkbox', { name: '녹화하지 않기' })).toBeInTheDocument();
  });

  it("starts the lecture without recording when '녹화하지 않기' is checked", async () => {
    mockFetch([teacher()]);
    const { router } = renderTeacher();
    const noRecording = await screen.findByRole('checkbox', { name: '녹화하지 않기' });
    expect(noRecording).not.toBeChecked();
    await userEvent.click(noRecording);
    await userEvent.click(screen.getByRole('button', { name: '라이브 강의 시작' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/live/teacher/7'));
    expect(router.state.location.search).toBe('?record=off');
  });

  it('says the schedule and the student information could not be loaded when the reload after a change fails', async () => {
    let fail = false;
    mockFetch([
      {
        url: '/api/classes/7/dashboard',
        respond: () =>
          fail
            ? { status: 503, body: errorEnvelope(503, 'Service Unavailable') }
            : { body: envelope(dashboard({ role: '강사', student_count: 12 })) },
      },
      {
        method: 'DELETE',
        url: '/api/classes/7/schedule',
        respond: () => {
          fail = true;
          return { body: envelope('success') };
        },
      },
    ]);
    renderTeacher();
    expect(await screen.findByText('수강생 12명')).toBeInTheDocument();
    await userEvent.click(screen.getByRole('button', { name: '첫 수업: 파도 읽기 일정 삭제' }));
    const schedule = screen.getByRole('region', { name: '강의 일정' });
    expect(await within(schedule).findByRole('alert')).toHaveTextContent('일정을 불러오지 못했어요.');
    expect(screen.getByText('수강생 정보를 불러오지 못했어요.')).toHaveAttribute('role', 'alert');
    expect(screen.queryByText('수강생 12명')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '수강생 목록 보기' })).toBeInTheDocument();
    // The schedule form stays usable.
    expect(within(schedule).getByRole('form', { name: '일정 추가' })).toBeInTheDocument();
  });

  it('edit info goes to the edit page', async () => {
    mockFetch([teacher()]);
    const { router } = renderTeacher();
    await userEvent.click(await screen.findByRole('button', { name: '정보 수정' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/edit/7'));
  });

  it('deletes the class after the confirmation and goes to my page', async () => {
    const { calls } = mockFetch([
      teacher(),
      {
        method: 'DELETE',
        url: '/api/classes/7/delete',
        respond: () => ({ body: envelope('success') }),
      },
    ]);
    const { router } = renderTeacher();
    await userEvent.click(await screen.findByRole('button', { name: '강의 삭제' }));
    let dialog = screen.getByRole('alertdialog', { name: '이 강의를 삭제하시겠어요?' });
    expect(dialog).toHaveAccessibleDescription('삭제한 강의는 복구할 수 없어요. 그래도 삭제하시겠어요?');
    await userEvent.click(within(dialog).getByRole('button', { name: '취소' }));
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
    expect(calls.some((call) => call.method === 'DELETE')).toBe(false);

    await userEvent.click(screen.getByRole('button', { name: '강의 삭제' }));
    dialog = screen.getByRole('alertdialog', { name: '이 강의를 삭제하시겠어요?' });
    await userEvent.click(within(dialog).getByRole('button', { name: '삭제' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/mypage'));
    expect(screen.getByRole('status')).toHaveTextContent('강의가 삭제되었어요.');
  });

  it('says the deletion failed and closes the confirmation', async () => {
    mockFetch([
      teacher(),
      {
        method: 'DELETE',
        url: '/api/classes/7/delete',
        respond: () => ({ status: 500, body: errorEnvelope(500, 'Internal Server Error') }),
      },
    ]);
    const { router } = renderTeacher();
    await userEvent.click(await screen.findByRole('button', { name: '강의 삭제' }));
    await userEvent.click(screen.getByRole('button', { name: '삭제' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('강의 삭제에 실패했어요. 다시 시도해 주세요.');
    await waitFor(() => expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument());
    expect(router.state.location.pathname).toBe('/dashboard/teacher/7');
  });

  it('adds a schedule entry with the API’s time format and removes one', async () => {
    const sent: unknown[] = [];
    mockFetch([
      teacher(),
      {
        method: 'POST',
        url: '/api/classes/7/schedule',
        respond: async (request) => {
          sent.push(await request.json());
          return { body: envelope({ ...lesson, id: 4 }) };
        },
      },
      {
        method: 'DELETE',
        url: '/api/classes/7/schedule',
        respond: async (request) => {
          sent.push(await request.json());
          return { body: envelope('success') };
        },
      },
    ]);
    renderTeacher();
    await addSchedule('두 번째 수업', '2026-11-30', '10:00', '12:00');
    expect(await screen.findByText('일정을 추가했어요.')).toBeInTheDocument();
    expect(sent[0]).toEqual({
      content: '두 번째 수업',
      date: '2026-11-30',
      start_time: '10:00:00',
      end_time: '12:00:00',
    });

    await userEvent.click(screen.getByRole('button', { name: '첫 수업: 파도 읽기 일정 삭제' }));
    expect(await screen.findByText('일정을 삭제했어요.')).toBeInTheDocument();
    expect(sent[1]).toEqual({ schedule_id: 3 });
  });

  it('checks a schedule entry before sending it', async () => {
    const { calls } = mockFetch([teacher()]);
    renderTeacher();
    await addSchedule('거꾸로 된 수업', '2026-11-30', '12:00', '10:00');
    expect(await screen.findByText('종료 시간은 시작 시간보다 늦어야 해요.')).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'POST')).toBe(false);
  });
});
