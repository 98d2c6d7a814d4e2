import { useInfiniteQuery, useQuery } from '@tanstack/react-query';
import { ROUTES, toPath } from '@sea/contract/paths';
import { REVIEW_PAGE_SIZE, type ReviewItem, type ReviewSummary } from '@sea/contract/reviews';
import { http } from '../../../lib/http.ts';
import { useLoggedIn } from '../../../lib/use-logged-in.ts';
import { reviewKeys } from './review-keys.ts';

/** `GET /api/classes/{id}/reviews/summary` (with the caller's own review when logged in). */
export function useReviewSummary(classId: number) {
  const loggedIn = useLoggedIn();
  return useQuery({
    queryKey: [...reviewKeys.summary(classId), { loggedIn }],
    queryFn: () => http<ReviewSummary>(toPath(ROUTES.reviewSummary, { classId })),
  });
}

/** The next page index, or undefined after a short page (the last one). */
export function nextReviewPage(lastPage: ReviewItem[], lastPageIndex: number): number | undefined {
  return lastPage.length < REVIEW_PAGE_SIZE ? undefined : lastPageIndex + 1;
}

/** A class's reviews, newest first, 10 a page; more pages load on demand. */
export function useReviewPages(classId: number) {
  return useInfiniteQuery({
    queryKey: reviewKeys.pages(classId),
    queryFn: ({ pageParam, signal }) =>
      http<ReviewItem[]>(toPath(ROUTES.reviews, { classId }), { query: { page: pageParam }, signal }),
    initialPageParam: 0,
    getNextPageParam: (lastPage, _pages, lastPageIndex) => nextReviewPage(lastPage, lastPageIndex),
  });
}
