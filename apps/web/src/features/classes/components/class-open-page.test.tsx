import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { describe, expect, it } from 'vitest';
import { CLASS_MESSAGES } from '@sea/contract/classes';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import type { MockRoute } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { classItem } from '../test/class-fixtures.ts';
import { jsonPart, sentForm } from '../test/sent-form.ts';
import { ClassOpenPage } from './class-open-page.tsx';
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

signedInPerTest();

function renderOpen() {
  return renderWithProviders(<ClassOpenPage />, {
    route: '/lecture/open',
    path: '/lecture/open',
    routes: [{ path: '/lecture/info/:classId', element: <p>강의 소개 화면</p> }],
  });
}

const submit = () => screen.getByRole('button', { name: '강의 개설하기' });

async function fillValid() {
  await screen.findByRole('option', { name: '프로그래밍' });
  await userEvent.selectOptions(screen.getByLabelText(/카테고리/), '프로그래밍');
  await userEvent.type(screen.getByLabelText(/강의 제목/), '  파도 타기 입문  ');
  await userEvent.type(screen.getByLabelText(/강의 목표/), '파도를 읽어요.');
  await userEvent.type(screen.getByLabelText(/강의 설명/), '주말마다 바다에서 만나요.');
}

describe('open a lecture', { timeout: 15_000 }, () => {
  it('keeps the submit button disabled until the form is valid', async () => {
    mockFetch([categories]);
    renderOpen();
    expect(await screen.findByRole('option', { name: '프로그래밍' })).toBeInTheDocument();
    expect(submit()).toBeDisabled();
    await userEvent.selectOptions(screen.getByLabelText(/카테고리/), '프로그래밍');
    await userEvent.type(screen.getByLabelText(/강의 제목/), '파도 타기 입문');
    await userEvent.type(screen.getByLabelText(/강의 목표/), '파도를 읽어요.');
    expect(submit()).toBeDisabled();
    await userEvent.type(screen.getByLabelText(/강의 설명/), '주말마다 바다에서 만나요.');
    await waitFor(() => expect(submit()).toBeEnabled());
    await userEvent.clear(screen.getByLabelText(/강의 목표/));
    await waitFor(() => expect(submit()).toBeDisabled());
  });

  it('shows every validation message of the form', async () => {
    mockFetch([categories]);
    renderOpen();
    const category = await screen.findByLabelText(/카테고리/);
    await screen.findByRole('option', { name: '프로그래밍' });
    const title = screen.getByLabelText(/강의 제목/);
    const goal = screen.getByLabelText(/강의 목표/);
    const description = screen.getByLabelText(/강의 설명/);

    await userEvent.selectOptions(category, '프로그래밍');
    await userEvent.selectOptions(category, '카테고리를 선택해 주세요');
    expect(await screen.findByText(CLASS_MESSAGES.categoryRequired)).toBeInTheDocument();
    expect(category).toHaveAttribute('aria-invalid', 'true');

    await userEvent.type(title, '파');
    expect(await screen.findByText(CLASS_MESSAGES.nameLength)).toBeInTheDocument();
    await userEvent.clear(title);
    expect(await screen.findByText(CLASS_MESSAGES.nameRequired)).toBeInTheDocument();
    await userEvent.type(title, '   ');
    expect(await screen.findByText(CLASS_MESSAGES.nameRequired)).toBeInTheDocument();
    await userEvent.clear(title);
    await userEvent.type(title, '가'.repeat(25));
    expect(await screen.findByText(CLASS_MESSAGES.nameLength)).toBeInTheDocument();
    await userEvent.type(title, '{Backspace}');
    await waitFor(() => expect(screen.queryByText(CLASS_MESSAGES.nameLength)).not.toBeInTheDocument());

    await userEvent.click(goal);
    await userEvent.click(description);
    expect(await screen.findByText(CLASS_MESSAGES.objectRequired)).toBeInTheDocument();
    await userEvent.click(title);
    expect(await screen.findByText(CLASS_MESSAGES.descriptionRequired)).toBeInTheDocument();
    expect(description).toHaveAccessibleDescription(CLASS_MESSAGES.descriptionRequired);
    expect(submit()).toBeDisabled();
  });

  it('sends the create part and opens the one-button dialog leading to the new class', async () => {
    const { spy } = mockFetch([
      categories,
      { method: 'POST', url: '/api/classes', respond: () => ({ body: envelope(classItem({ id: 42 })) }) },
    ]);
    const { router } = renderOpen();
    await fillValid();
    await waitFor(() => expect(submit()).toBeEnabled());
    await userEvent.click(submit());

    const dialog = await screen.findByRole('alertdialog', { name: '강의가 개설되었어요!' });
    expect(dialog).toHaveAccessibleDescription('개설한 강의를 보러 갈까요?');
    expect(within(dialog).getAllByRole('button')).toHaveLength(1);
    const form = sentForm(spy, '/api/classes', 'POST');
    expect(await jsonPart(form, 'classroomCreateDto')).toEqual({
      categoryId: 13,
      name: '파도 타기 입문',
      object: '파도를 읽어요.',
      description: '주말마다 바다에서 만나요.',
      instructorInfo: null,
      prerequisite: null,
      announcement: null,
    });
    expect(form.has('imagefile')).toBe(false);

    await userEvent.click(within(dialog).getByRole('button', { name: '강의실로 가기' }));
    await waitFor(() => expect(router.state.location.pathname).toBe('/lecture/info/42'));
  });

  it.each([
    [401, errorEnvelope(401, 'Unauthorized'), '권한이 없어요. 로그인 후 다시 시도해 주세요.'],
    [400, errorEnvelope(400, 'Bad Request', '입력값을 확인해 주세요.'), '입력값을 확인해 주세요.'],
    [400, { status: 400 }, '강의 개설에 실패했어요.'],
    [500, errorEnvelope(500, 'Internal Server Error'), '알 수 없는 오류가 발생했어요.'],
  ])('shows the catalogue text when creation answers %i', async (status, body, text) => {
    mockFetch([categories, { method: 'POST', url: '/api/classes', respond: () => ({ status, body }) }]);
    renderOpen();
    await fillValid();
    await waitFor(() => expect(submit()).toBeEnabled());
    await userEvent.click(submit());
    expect(await screen.findByRole('alert')).toHaveTextContent(text);
    expect(screen.queryByRole('alertdialog')).not.toBeInTheDocument();
  });

  it('puts the server’s invalid fields on the form', async () => {
    mockFetch([
      categories,
      {
        method: 'POST',
        url: '/api/classes',
        respond: () => ({
          status: 400,
          body: errorEnvelope(400, 'Bad Request', '입력값을 확인해 주세요.', {
            categoryId: '없는 카테고리예요.',
          }),
        }),
      },
    ]);
    renderOpen();
    await fillValid();
    await waitFor(() => expect(submit()).toBeEnabled());
    await userEvent.click(submit());
    expect(await screen.findByText('없는 카테고리예요.')).toBeInTheDocument();
    expect(screen.getByLabelText(/카테고리/)).toHaveAttribute('aria-invalid', 'true');
  });

  it('says when the categories cannot be loaded', async () => {
    mockFetch([{ url: '/api/categories', respond: () => ({ status: 500, body: null }) }]);
    renderOpen();
    expect(await screen.findByRole('alert')).toHaveTextContent('카테고리 정보를 불러오지 못했어요.');
  });

  it('rejects a banner that is not a JPEG or PNG of at most 5 MB and clears the choice', async () => {
    mockFetch([categories]);
    renderOpen();
    const input = document.querySelector<HTMLInputElement>('input[type="file"]');
    if (input === null) throw new Error('no file input');
    const gif = new File(['GIF89a'], 'wave.gif', { type: 'image/gif' });
    await userEvent.upload(input, gif, { applyAccept: false });
    expect(await screen.findByRole('alert')).toHaveTextContent(
      '.jpg, .png 파일만 올릴 수 있어요. 5MB 이하의 파일만 업로드할 수 있어요.',
    );
    expect(input.files?.length ?? 0).toBe(0);
    expect(screen.queryByRole('img', { name: '선택한 이미지 미리보기' })).not.toBeInTheDocument();
  });
});
