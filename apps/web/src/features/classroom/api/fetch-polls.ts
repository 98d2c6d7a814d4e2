import type { PollList } from '@sea/contract/classroom';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';

/** `GET /api/classes/{classId}/polls`: the open live session's polls as the reader sees them. */
export function fetchPolls(classId: number): Promise<PollList> {
  return http<PollList>(toPath(ROUTES.classPolls, { classId }));
}
