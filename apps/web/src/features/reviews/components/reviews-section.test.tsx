import { screen, waitFor, within } from '@testing-library/react';
import userEvent from '@testing-library/user-event';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import type { ReviewItem, ReviewSummary } from '@sea/contract/reviews';
import { setTokens } from '../../../lib/auth-tokens.ts';
import { envelope, mockFetch } from '../../../testing/fetch-mock.ts';
import { renderWithProviders } from '../../../testing/render.tsx';
import { ReviewsSection } from './reviews-section.tsx';

beforeEach(() => setTokens({ accessToken: 'a', refreshToken: 'r' }));
afterEach(() => vi.unstubAllGlobals());

function review(id: number, overrides: Partial<ReviewItem> = {}): ReviewItem {
  return {
    id,
    class_id: 7,
    user_id: `user-${id}`,
    nickname: `고래${id}`,
    profile_image_path: null,
    rating: 4,
    content: `수강평 ${id}번: 아주 좋은 강의였어요.`,
    reply: null,
    created_at: '2026-11-20T10:00:00.000Z',
    updated_at: '2026-11-20T10:00:00.000Z',
    ...overrides,
  };
}

const SUMMARY: ReviewSummary = {
  rating_average: 4.3,
  review_count: 12,
  distribution: [0, 1, 0, 5, 6],
  my_review_id: null,
  my_role: '관계없음',
};
const ALL = Array.from({ length: 12 }, (_, index) => review(12 - index));

function mockReviews(summary: ReviewSummary = SUMMARY, posted: unknown[] = []) {
  return mockFetch([
    { url: '/api/classes/7/reviews/summary', respond: () => ({ body: envelope(summary) }) },
    {
      method: 'GET',
      url: /^\/api\/classes\/7\/reviews\?page=\d+$/,
      respond: (request) => {
        const page = Number(new URL(request.url).searchParams.get('page'));
        return { body: envelope(ALL.slice(page * 10, page * 10 + 10)) };
      },
    },
    {
      method: 'POST',
      url: '/api/classes/7/reviews',
      respond: async (request) => {
        posted.push(await request.json());
        return { body: envelope(review(99)) };
      },
    },
    {
      method: 'POST',
      url: '/api/classes/7/reviews/12/reply',
      respond: async (request) => {
        posted.push(await request.json());
        return { body: envelope(review(12, { reply: '고마워요' })) };
      },
    },
  ]);
}

describe('ReviewsSection', () => {
  it('shows the mean, the count, the distribution and 10 reviews, then 10 more on demand', async () => {
    mockReviews();
    renderWithProviders(<ReviewsSection classId={7} />);
    expect(await screen.findByText('평균 별점 4.3점')).toBeInTheDocument();
    expect(screen.getByText('수강평 12개')).toBeInTheDocument();
    const bars = screen.getByRole('list', { name: '별점 요약' });
    expect(
      within(bars)
        .getAllByRole('listitem')
        .map((row) => row.getAttribute('aria-label')),
    ).toEqual(['5점 6개', '4점 5개', '3점 0개', '2점 1개', '1점 0개']);
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(10));
    expect(screen.getAllByRole('article')[0]).toHaveAccessibleName('고래12');
    await userEvent.click(screen.getByRole('button', { name: '수강평 더 보기' }));
    await waitFor(() => expect(screen.getAllByRole('article')).toHaveLength(12));
    expect(screen.queryByRole('button', { name: '수강평 더 보기' })).not.toBeInTheDocument();
    expect(screen.queryByRole('form', { name: '수강평 남기기' })).not.toBeInTheDocument();
  });

  it('lets a student write one: the rules first, then the post', async () => {
    const posted: unknown[] = [];
    mockReviews({ ...SUMMARY, my_role: '수강생' }, posted);
    renderWithProviders(<ReviewsSection classId={7} />);
    const form = await screen.findByRole('form', { name: '수강평 남기기' });
    await userEvent.type(within(form).getByRole('textbox', { name: /수강평/ }), '짧아요');
    await userEvent.click(within(form).getByRole('button', { name: '수강평 등록' }));
    expect(within(form).getByText('별점을 1점에서 5점 사이로 골라 주세요.')).toBeInTheDocument();
    expect(within(form).getByText('수강평은 10자 이상 1000자 이하로 입력해 주세요.')).toBeInTheDocument();
    expect(posted).toEqual([]);
    await userEvent.click(within(form).getByRole('radio', { name: '5점' }));
    await userEvent.type(within(form).getByRole('textbox', { name: /수강평/ }), ' 정말 많이 배웠어요.');
    await userEvent.click(within(form).getByRole('button', { name: '수강평 등록' }));
    await waitFor(() => expect(posted).toEqual([{ rating: 5, content: '짧아요 정말 많이 배웠어요.' }]));
  });

  it('marks the caller’s own review with edit and delete, and no form', async () => {
    mockReviews({ ...SUMMARY, my_review_id: 11, my_role: '수강생' });
    renderWithProviders(<ReviewsSection classId={7} />);
    const mine = await screen.findByRole('article', { name: '고래11' });
    expect(within(mine).getByText('내 수강평')).toBeInTheDocument();
    expect(within(mine).getByRole('button', { name: '수정' })).toBeInTheDocument();
    expect(within(screen.getByRole('article', { name: '고래12' })).queryByRole('button')).toBeNull();
    expect(screen.queryByRole('form', { name: '수강평 남기기' })).not.toBeInTheDocument();
  });

  it('lets the teacher reply to a review once', async () => {
    const posted: unknown[] = [];
    mockReviews({ ...SUMMARY, my_role: '강사' }, posted);
    renderWithProviders(<ReviewsSection classId={7} />);
    const first = await screen.findByRole('article', { name: '고래12' });
    await userEvent.click(within(first).getByRole('button', { name: '답글 달기' }));
    await userEvent.type(within(first).getByRole('textbox', { name: /답글/ }), '고마워요');
    await userEvent.click(within(first).getByRole('button', { name: '답글 등록' }));
    await waitFor(() => expect(posted).toEqual([{ content: '고마워요' }]));
  });
});
