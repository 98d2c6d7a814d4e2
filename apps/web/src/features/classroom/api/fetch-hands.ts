import type { HandsView } from '@sea/contract/classroom';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';

/** `GET /api/classes/{classId}/hands`: the raised hands as the reader sees them. */
export function fetchHands(classId: number): Promise<HandsView> {
  return http<HandsView>(toPath(ROUTES.classHands, { classId }));
}
