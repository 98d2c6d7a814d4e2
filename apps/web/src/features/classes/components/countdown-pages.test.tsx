import { act, fireEvent, screen } from '@testing-library/react';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { ClassCreatedPage } from './class-created-page.tsx';
import { EnrolmentDonePage } from './enrolment-done-page.tsx';

const targets = [
  { path: '/lecture/info/:classId', element: <p>강의 소개 화면</p> },
  { path: '/dashboard/student/:classId', element: <p>학습 대시보드 화면</p> },
];

beforeEach(() => {
  vi.useFakeTimers();
  mockFetch([]);
});

afterEach(() => {
  vi.useRealTimers();
  vi.unstubAllGlobals();
});

/** Advances second by second: each second's timer is set only after the previous one re-rendered. */
function tick(ms: number) {
  for (let passed = 0; passed < ms; passed += 1000) {
    act(() => {
      vi.advanceTimersByTime(1000);
    });
  }
}

describe('class created page', { timeout: 15_000 }, () => {
  it('counts down from 5 and then opens the class introduction', () => {
    const { router } = renderWithProviders(<ClassCreatedPage />, {
      route: '/lecture/created/7',
      path: '/lecture/created/:classId',
      routes: targets,
    });
    expect(screen.getByRole('heading', { name: '강의가 개설되었어요!' })).toBeInTheDocument();
    expect(screen.getByRole('timer')).toHaveTextContent('5초 후 강의 소개 페이지로 이동해요.');
    tick(1000);
    expect(screen.getByRole('timer')).toHaveTextContent('4초 후');
    tick(3000);
    expect(screen.getByRole('timer')).toHaveTextContent('1초 후');
    expect(router.state.location.pathname).toBe('/lecture/created/7');
    tick(1000);
    expect(router.state.location.pathname).toBe('/lecture/info/7');
    expect(screen.getByText('강의 소개 화면')).toBeInTheDocument();
  });

  it('goes at once with the button', () => {
    const { router } = renderWithProviders(<ClassCreatedPage />, {
      route: '/lecture/created/7',
      path: '/lecture/created/:classId',
      routes: targets,
    });
    fireEvent.click(screen.getByRole('button', { name: '개설한 강의 보러 가기' }));
    expect(router.state.location.pathname).toBe('/lecture/info/7');
  });

  it('without a class id alerts and stays', () => {
    const { router } = renderWithProviders(<ClassCreatedPage />, {
      route: '/lecture/created',
      path: '/lecture/created',
      routes: targets,
    });
    expect(screen.getByRole('alert')).toHaveTextContent('개설된 강의 정보를 찾을 수 없어요.');
    tick(10_000);
    expect(router.state.location.pathname).toBe('/lecture/created');
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '내가 개설한 강의로 가기' })).toHaveAttribute('href', '/mypage');
  });
});

describe('enrolment complete page', { timeout: 15_000 }, () => {
  it('counts down from 5 and then opens the student dashboard', () => {
    const { router } = renderWithProviders(<EnrolmentDonePage />, {
      route: '/enrollment/12',
      path: '/enrollment/:classId',
      routes: targets,
    });
    expect(screen.getByRole('heading', { name: '수강 신청이 완료되었어요!' })).toBeInTheDocument();
    expect(screen.getByRole('timer')).toHaveTextContent('5초 후 학습실로 이동해요.');
    tick(4000);
    expect(router.state.location.pathname).toBe('/enrollment/12');
    tick(1000);
    expect(router.state.location.pathname).toBe('/dashboard/student/12');
  });

  it('goes to the learning room at once with the button', () => {
    const { router } = renderWithProviders(<EnrolmentDonePage />, {
      route: '/enrollment/12',
      path: '/enrollment/:classId',
      routes: targets,
    });
    fireEvent.click(screen.getByRole('button', { name: '학습실로 가기' }));
    expect(router.state.location.pathname).toBe('/dashboard/student/12');
  });

  it('without a class id alerts once, stays and offers the classroom', () => {
    const { router } = renderWithProviders(<EnrolmentDonePage />, {
      route: '/enrollment',
      path: '/enrollment',
      routes: targets,
    });
    expect(screen.getByRole('heading', { name: '수강 신청이 완료되었어요!' })).toBeInTheDocument();
    expect(screen.getAllByRole('alert')).toHaveLength(1);
    expect(screen.getByRole('alert')).toHaveTextContent('수강 신청한 강의 정보를 찾을 수 없어요.');
    tick(10_000);
    expect(router.state.location.pathname).toBe('/enrollment');
    expect(screen.queryByRole('timer')).not.toBeInTheDocument();
    expect(screen.queryByRole('button', { name: '학습실로 가기' })).not.toBeInTheDocument();
    expect(screen.getByRole('link', { name: '수강 중인 강의로 가기' })).toHaveAttribute('href', '/classroom');
  });

  it('treats an id that is not a class id like a missing one', () => {
    const { router } = renderWithProviders(<EnrolmentDonePage />, {
      route: '/enrollment/abc',
      path: '/enrollment/:classId',
      routes: targets,
    });
    expect(screen.getByRole('alert')).toHaveTextContent('수강 신청한 강의 정보를 찾을 수 없어요.');
    tick(6000);
    expect(router.state.location.pathname).toBe('/enrollment/abc');
  });
});
