import { screen, within } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import type { Instructor } from '@sea/contract/instructors';
import { classItem } from '../../features/catalogue/test-classes.ts';
import { envelope, errorEnvelope, mockFetch } from '../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../testing/render.tsx';
import { Component as InstructorRoute } from './instructor.tsx';
import { Component as LectureInfoRoute } from './lecture-info.tsx';

afterEach(() => vi.unstubAllGlobals());

const INSTRUCTOR: Instructor = {
  id: 'teacher-7',
  nickname: '문어선생',
  profile_image_path: null,
  introduction: '10년 동안 바다를 그려 왔어요.',
  student_count: 1234,
  rating_average: 4.6,
  review_count: 31,
  classes: [classItem(7, { name: '바다 수채화', student_count: 30 }), classItem(5, { name: '파도 드로잉' })],
};

describe('the instructor page', () => {
  it('shows the introduction, the totals and the classes as cards', async () => {
    mockFetch([{ url: '/api/instructors/teacher-7', respond: () => ({ body: envelope(INSTRUCTOR) }) }]);
    renderWithProviders(<InstructorRoute />, { route: '/instructor/teacher-7', path: '/instructor/:userId' });
    expect(await screen.findByRole('heading', { level: 1, name: '문어선생 강사' })).toBeInTheDocument();
    expect(screen.getByText('10년 동안 바다를 그려 왔어요.')).toBeInTheDocument();
    const stats = screen.getByText('총 수강생').closest('dl');
    expect(stats).toHaveTextContent('총 수강생1,234명');
    expect(stats).toHaveTextContent('평균 별점4.6점 (수강평 31개)');
    const grid = screen.getByRole('list', { name: '개설한 강의' });
    // Each card: the class name to its page, the teacher's name back to this page (no link in a link).
    expect(
      within(grid)
        .getAllByRole('link')
        .map((link) => link.getAttribute('href')),
    ).toEqual(['/lecture/info/7', '/instructor/teacher-7', '/lecture/info/5', '/instructor/teacher-5']);
  });

  it('says so for an unknown instructor', async () => {
    mockFetch([
      {
        url: '/api/instructors/nobody',
        respond: () => ({ status: 404, body: errorEnvelope(404, 'Not Found') }),
      },
    ]);
    renderWithProviders(<InstructorRoute />, { route: '/instructor/nobody', path: '/instructor/:userId' });
    expect(await screen.findByRole('alert')).toHaveTextContent('강사 정보를 찾지 못했어요.');
  });
});

describe('the class page', () => {
  it('links the instructor name to the instructor page', async () => {
    mockFetch([
      {
        url: '/api/classes/7',
        respond: () => ({ body: envelope(classItem(7, { instructor: '문어선생' })) }),
      },
      {
        url: '/api/classes/7/reviews/summary',
        respond: () => ({
          body: envelope({
            rating_average: null,
            review_count: 0,
            distribution: [0, 0, 0, 0, 0],
            my_review_id: null,
            my_role: '관계없음',
          }),
        }),
      },
      { url: '/api/classes/7/reviews?page=0', respond: () => ({ body: envelope([]) }) },
      { url: '/api/instructors/teacher-7', respond: () => ({ body: envelope(INSTRUCTOR) }) },
    ]);
    renderWithProviders(<LectureInfoRoute />, { route: '/lecture/info/7', path: '/lecture/info/:classId' });
    expect(await screen.findByRole('link', { name: '문어선생 강사' })).toHaveAttribute(
      'href',
      '/instructor/teacher-7',
    );
    expect(await screen.findByText('아직 수강평이 없어요. 첫 수강평을 기다리고 있어요.')).toBeInTheDocument();
    // 강사 소개 is the instructor's own, as on their page: one text, one avatar.
    expect(await screen.findByText('10년 동안 바다를 그려 왔어요.')).toBeInTheDocument();
  });
});
