import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import {
  PollListSchema,
  QuestionListSchema,
  type PollList,
  type QuestionList,
} from '@sea/contract/classroom';
import { ROUTES, toPath } from '@sea/contract/paths';
import { SessionItemSchema, type SessionItem } from '@sea/contract/sessions';
import { classKeys } from '../../../lib/class-keys.ts';
import { http } from '../../../lib/http.ts';

const SessionListSchema = z.array(SessionItemSchema);

/** The class's sessions, newest first (the same answer as the replays list, under its key). */
export function useClassSessions(classId: number) {
  return useQuery({
    queryKey: classKeys.sessions(classId),
    queryFn: (): Promise<SessionItem[]> =>
      http(toPath(ROUTES.sessions, { classId }), { schema: SessionListSchema }),
  });
}

/** `GET /api/classes/{id}/questions?session=`: one session's questions, pinned first then by votes. */
export function useSessionQuestions(classId: number, sessionId: number | null) {
  return useQuery({
    queryKey: classKeys.sessionQuestions(classId, sessionId ?? 0),
    queryFn: (): Promise<QuestionList> =>
      http(toPath(ROUTES.classQuestions, { classId }), {
        query: { session: sessionId },
        schema: QuestionListSchema,
      }),
    enabled: sessionId !== null,
  });
}

/** `GET /api/classes/{id}/polls?session=`: one session's polls with their results (the teacher sees them all). */
export function useSessionPolls(classId: number, sessionId: number | null) {
  return useQuery({
    queryKey: classKeys.sessionPolls(classId, sessionId ?? 0),
    queryFn: (): Promise<PollList> =>
      http(toPath(ROUTES.classPolls, { classId }), { query: { session: sessionId }, schema: PollListSchema }),
    enabled: sessionId !== null,
  });
}
