import { useParams } from 'react-router';
import { NotFoundError } from '../../lib/not-found-error.ts';
import { parseClassId } from './parse-class-id.ts';

/**
 * The class id of the page's `:classId`. An address whose id cannot be one (letters, 0, too large) is a page
 * that does not exist: the 404 page shows (see `RouteError`), and nothing is asked of the server.
 */
export function useClassId(): number {
  const raw = useParams().classId;
  const classId = parseClassId(raw);
  if (classId === null) throw new NotFoundError(`class ${String(raw)}`);
  return classId;
}
