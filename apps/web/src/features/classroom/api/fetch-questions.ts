import type { QuestionList } from '@sea/contract/classroom';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';

/** `GET /api/classes/{classId}/questions`: the open live session's questions as the reader sees them. */
export function fetchQuestions(classId: number): Promise<QuestionList> {
  return http<QuestionList>(toPath(ROUTES.classQuestions, { classId }));
}
