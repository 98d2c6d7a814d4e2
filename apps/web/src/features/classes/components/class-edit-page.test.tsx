import { screen, waitFor } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it, vi } from 'vitest';
import { CLASS_MESSAGES } from '@sea/contract/classes';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import type { MockRoute } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { classItem } from '../test/class-fixtures.ts';
import { jsonPart, sentForm } from '../test/sent-form.ts';
import { ClassEditPage } from './class-edit-page.tsx';
import { signedInPerTest } from '../../../testing/signed-in.ts';

const categories: MockRoute = {
  url: '/api/categories',
  respond: () => ({
    body: [
      { id: 1, name: '디지털 드로잉' },
      { id: 13, name: '프로그래밍' },
    ],
  }),
};
const detail: MockRoute = { url: '/api/classes/7', respond: () => ({ body: envelope(classItem()) }) };
const teacherRole: MockRoute = { url: '/api/classes/7/role', respond: () => ({ body: envelope('강사') }) };

signedInPerTest();

function renderEdit() {
  return renderWithProviders(<ClassEditPage />, {
    route: '/dashboard/edit/7',
    path: '/dashboard/edit/:classId',
    routes: [{ path: '/dashboard/teacher/:classId', element: <p>강의 관리 화면</p> }],
  });
}

const finish = () => screen.getByRole('button', { name: '수정 완료' });

describe('class edit', { timeout: 15_000 }, () => {
  it('fills the form with the class and marks the required fields', async () => {
    mockFetch([categories, detail, teacherRole]);
    renderEdit();
    expect(await screen.findByRole('heading', { name: '강의 정보 수정' })).toBeInTheDocument();
    expect(screen.getByLabelText(/카테고리/)).toHaveValue('13');
    expect(screen.getByLabelText(/강의 제목/)).toHaveValue('바다에서 배우는 타입스크립트');
    expect(screen.getByLabelText(/공지사항/)).toHaveValue('첫 수업은 다음 주 월요일이에요.');
    for (const label of ['카테고리', '강의 제목', '강의 목표', '강의 설명']) {
      expect(screen.getByText(label, { selector: 'label' })).toHaveTextContent(`${label} (필수)`);
    }
    expect(screen.getByText('공지사항', { selector: 'label' })).not.toHaveTextContent('(필수)');
  });

  it('sends the update part, announces success and goes to the teacher dashboard', async () => {
    const { spy } = mockFetch([
      categories,
      detail,
      teacherRole,
      { method: 'PATCH', url: '/api/classes/7', respond: () => ({ body: envelope(classItem()) }) },
    ]);
    const { router } = renderEdit();
    const title = await screen.findByLabelText(/강의 제목/);
    await userEvent.clear(title);
    await userEvent.type(title, '새 제목입니다');
    await userEvent.selectOptions(screen.getByLabelText(/카테고리/), '디지털 드로잉');
    await userEvent.clear(screen.getByLabelText(/공지사항/));
    await userEvent.click(finish());

    await waitFor(() => expect(router.state.location.pathname).toBe('/dashboard/teacher/7'));
    expect(screen.getByRole('status')).toHaveTextContent('수정이 완료되었어요.');
    expect(await jsonPart(sentForm(spy, '/api/classes/7', 'PATCH'), 'classroomUpdateDto')).toEqual({
      categoryId: 1,
      name: '새 제목입니다',
      object: '타입으로 버그를 줄여요.',
      description: '매주 한 번, 실습 위주로 진행해요.',
      instructorInfo: '10년차 개발자예요.',
      prerequisite: '자바스크립트 기초',
      announcement: null,
    });
  });

  it('shows the required messages on finish and sends nothing', async () => {
    const { calls } = mockFetch([categories, detail, teacherRole]);
    renderEdit();
    const title = await screen.findByLabelText(/강의 제목/);
    await userEvent.clear(title);
    await userEvent.clear(screen.getByLabelText(/강의 설명/));
    expect(finish()).toBeEnabled();
    await userEvent.click(finish());
    expect(await screen.findByText(CLASS_MESSAGES.nameRequired)).toBeInTheDocument();
    expect(screen.getByText(CLASS_MESSAGES.descriptionRequired)).toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
  });

  it.each([
    [
      400,
      errorEnvelope(400, 'Bad Request', '입력값을 확인해 주세요.'),
      '수정에 실패했어요. 다시 시도해 주세요.',
    ],
    [418, errorEnvelope(418, 'Role Error', '강사만 할 수 있어요.'), '수정에 실패했어요. 다시 시도해 주세요.'],
  ])('says the edit failed when the server answers %i', async (status, body, text) => {
    const { router } = renderEditWith({ status, body });
    await userEvent.click(await screen.findByRole('button', { name: '수정 완료' }));
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(router.state.location.pathname).toBe('/dashboard/edit/7');
  });

  it('says an error occurred when the server cannot be reached', async () => {
    mockFetch([categories, detail, teacherRole]);
    const real = vi.mocked(fetch);
    vi.stubGlobal(
      'fetch',
      vi.fn((input: RequestInfo | URL, init?: RequestInit) =>
        init?.method === 'PATCH' ? Promise.reject(new TypeError('offline')) : real(input, init),
      ),
    );
    renderEdit();
    await userEvent.click(await screen.findByRole('button', { name: '수정 완료' }));
    expect(await screen.findByRole('alert')).toHaveTextContent('수정 중 오류가 발생했어요.');
  });

  it('tells someone who is not the teacher that only the teacher can edit', async () => {
    const { calls } = mockFetch([
      categories,
      detail,
      { url: '/api/classes/7/role', respond: () => ({ body: envelope('수강생') }) },
    ]);
    renderEdit();
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '강의를 개설한 강사만 강의 정보를 수정할 수 있어요.',
    );
    expect(screen.getByRole('link', { name: '강의 소개 보기' })).toHaveAttribute('href', '/lecture/info/7');
    expect(screen.queryByRole('button', { name: '수정 완료' })).not.toBeInTheDocument();
    expect(calls.some((call) => call.method === 'PATCH')).toBe(false);
  });

  it('cancel goes back', async () => {
    mockFetch([categories, detail, teacherRole]);
    const { router } = renderWithProviders(<ClassEditPage />, {
      route: '/dashboard/edit/7',
      path: '/dashboard/edit/:classId',
    });
    await router.navigate('/dashboard/edit/7');
    await userEvent.click(await screen.findByRole('button', { name: '취소' }));
    await waitFor(() => expect(router.state.historyAction).toBe('POP'));
  });
});

function renderEditWith(answer: { status: number; body: unknown }) {
  mockFetch([
    categories,
    detail,
    teacherRole,
    { method: 'PATCH', url: '/api/classes/7', respond: () => answer },
  ]);
  return renderEdit();
}
