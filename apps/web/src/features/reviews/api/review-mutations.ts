import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ROUTES, toPath } from '@sea/contract/paths';
import type { ReviewCreate, ReviewItem, ReviewUpdate } from '@sea/contract/reviews';
import { http } from '../../../lib/http.ts';

/** After any review change: the class (its mean and count), its reviews and every list showing the class. */
function useRefreshClass(classId: number) {
  const queryClient = useQueryClient();
  return () => queryClient.invalidateQueries({ queryKey: ['classes', classId] });
}

/** `POST /api/classes/{id}/reviews`. */
export function useCreateReview(classId: number) {
  const refresh = useRefreshClass(classId);
  return useMutation({
    mutationFn: (body: ReviewCreate) =>
      http<ReviewItem>(toPath(ROUTES.reviews, { classId }), { method: 'POST', json: body }),
    onSuccess: refresh,
  });
}

/** `PATCH /api/classes/{id}/reviews/{reviewId}`. */
export function useUpdateReview(classId: number) {
  const refresh = useRefreshClass(classId);
  return useMutation({
    mutationFn: ({ reviewId, body }: { reviewId: number; body: ReviewUpdate }) =>
      http<ReviewItem>(toPath(ROUTES.review, { classId, reviewId }), { method: 'PATCH', json: body }),
    onSuccess: refresh,
  });
}

/** `DELETE /api/classes/{id}/reviews/{reviewId}`. */
export function useDeleteReview(classId: number) {
  const refresh = useRefreshClass(classId);
  return useMutation({
    mutationFn: (reviewId: number) =>
      http(toPath(ROUTES.review, { classId, reviewId }), { method: 'DELETE' }),
    onSuccess: refresh,
  });
}

/** `POST /api/classes/{id}/reviews/{reviewId}/reply`. */
export function useReplyToReview(classId: number) {
  const refresh = useRefreshClass(classId);
  return useMutation({
    mutationFn: ({ reviewId, content }: { reviewId: number; content: string }) =>
      http<ReviewItem>(toPath(ROUTES.reviewReply, { classId, reviewId }), {
        method: 'POST',
        json: { content },
      }),
    onSuccess: refresh,
  });
}
