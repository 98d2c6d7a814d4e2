import { useMutation } from '@tanstack/react-query';
import { ROUTES } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';

/** `DELETE /api/auth/signup`: withdraws the signed-in account. */
export function withdraw(): Promise<unknown> {
  return http(ROUTES.signup, { method: 'DELETE' });
}

/**
 * The callbacks live on the mutation, not on `mutate`: a 401 removes the tokens, which unmounts the page's
 * form, and the answer must still be announced.
 */
export function useWithdraw(callbacks: { onSuccess: () => void; onError: (error: unknown) => void }) {
  return useMutation({ mutationFn: withdraw, ...callbacks });
}
