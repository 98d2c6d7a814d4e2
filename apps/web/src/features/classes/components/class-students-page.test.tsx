import { fireEvent, screen, within } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import type { ClassStudent } from '@sea/contract/classes';
import { chatAvatarFor } from '../../../lib/default-images.ts';
import { envelope, errorEnvelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { ClassStudentsPage } from './class-students-page.tsx';
import { signedInPerTest } from '../../../testing/signed-in.ts';

const students: ClassStudent[] = [
  {
    id: 'u1',
    email: 'whale@example.com',
    nickname: '고래',
    profile_image_path: '/uploads/avatars/whale.png',
    created_at: '2026-03-05T09:30:00Z',
  },
  { id: 'u2', email: null, nickname: '해마', profile_image_path: null, created_at: '2026-11-20T23:00:00Z' },
];

signedInPerTest();

function renderList() {
  return renderWithProviders(<ClassStudentsPage />, {
    route: '/lecture/students/7',
    path: '/lecture/students/:classId',
  });
}

describe('student list', { timeout: 15_000 }, () => {
  it('shows a loading text, then a table with numbers, nicknames, e-mails and Korean dates', async () => {
    mockFetch([{ url: '/api/classes/7/dashboard/students', respond: () => ({ body: envelope(students) }) }]);
    renderList();
    expect(screen.getByRole('status')).toHaveTextContent('수강생 정보를 불러오는 중이에요...');
    expect(await screen.findByRole('heading', { name: '수강생 목록' })).toBeInTheDocument();
    const table = await screen.findByRole('table');
    expect(
      within(table)
        .getAllByRole('columnheader')
        .map((cell) => cell.textContent),
    ).toEqual(['번호', '프로필 사진', '닉네임', '이메일', '신청일']);
    const rows = within(table).getAllByRole('row').slice(1);
    expect(rows).toHaveLength(2);
    const first = within(rows[0] as HTMLElement).getAllByRole('cell');
    expect(first.map((cell) => cell.textContent)).toEqual([
      '1',
      '',
      '고래',
      'whale@example.com',
      new Date('2026-03-05T09:30:00Z').toLocaleDateString('ko-KR', {
        year: 'numeric',
        month: 'long',
        day: 'numeric',
      }),
    ]);
    expect(first[4]).toHaveTextContent(/2026년 3월 \d+일/);
    const second = within(rows[1] as HTMLElement).getAllByRole('cell');
    expect(second[3]).toHaveTextContent('이메일 정보 없음');
  });

  it('falls back to a default picture when the picture is missing or broken', async () => {
    mockFetch([{ url: '/api/classes/7/dashboard/students', respond: () => ({ body: envelope(students) }) }]);
    renderList();
    const whale = await screen.findByRole('img', { name: '고래님의 프로필 사진' });
    expect(whale).toHaveAttribute('src', '/uploads/avatars/whale.png');
    fireEvent.error(whale);
    expect(screen.getByRole('img', { name: '고래님의 프로필 사진' })).toHaveAttribute(
      'src',
      chatAvatarFor('고래'),
    );
    expect(screen.getByRole('img', { name: '해마님의 프로필 사진' })).toHaveAttribute(
      'src',
      chatAvatarFor('해마'),
    );
  });

  it('shows the error text in place of the list', async () => {
    mockFetch([
      {
        url: '/api/classes/7/dashboard/students',
        respond: () => ({ status: 418, body: errorEnvelope(418, 'Role Error', '강사만 볼 수 있어요.') }),
      },
    ]);
    renderList();
    expect(await screen.findByRole('alert')).toHaveTextContent('수강생 정보를 불러오지 못했어요.');
    expect(screen.queryByRole('table')).not.toBeInTheDocument();
  });

  it('says when nobody has enrolled yet', async () => {
    mockFetch([{ url: '/api/classes/7/dashboard/students', respond: () => ({ body: envelope([]) }) }]);
    renderList();
    expect(await screen.findByText('아직 수강생이 없어요.')).toBeInTheDocument();
  });
});
