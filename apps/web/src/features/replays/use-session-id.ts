import { useParams } from 'react-router';
import { MAX_ID } from '@sea/contract/ids';
import { NotFoundError } from '../../lib/not-found-error.ts';

/** The page's `:sessionId`; an address whose id cannot be one shows the 404 page, asking nothing. */
export function useSessionId(): number {
  const raw = useParams().sessionId;
  const id = raw !== undefined && /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isSafeInteger(id) || id <= 0 || id > MAX_ID) throw new NotFoundError(`session ${String(raw)}`);
  return id;
}
