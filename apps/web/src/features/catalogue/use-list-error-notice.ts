import { useEffect } from 'react';
import { useNotify } from '../../components/ui/use-notify.ts';
import { isHttpError } from '../../lib/http-error.ts';

/**
 * Lecture lists (product-spec section 8): a 400 shows the server's message; other failures are only logged
 * (a 401 is handled by the route guard and the header).
 */
export function useListErrorNotice(error: unknown): void {
  const notify = useNotify();
  useEffect(() => {
    if (!error) return;
    if (isHttpError(error, 400) && error.messageKor) notify(error.messageKor, { tone: 'error' });
    else console.error('Class list failed to load', error);
  }, [error, notify]);
}
