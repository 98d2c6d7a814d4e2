import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ROUTES, toPath } from '@sea/contract/paths';
import { SessionItemSchema } from '@sea/contract/sessions';
import type { SessionItem } from '@sea/contract/sessions';
import { classKeys } from '../../../lib/class-keys.ts';
import { http } from '../../../lib/http.ts';

/** How often the list asks again while a session records or its replay is being made. */
export const SESSIONS_REFRESH_MS = 5_000;
/** Polls at most this many times in a row (about an hour), so a forgotten tab stops asking. */
export const SESSIONS_MAX_POLLS = 720;

const SessionListSchema = z.array(SessionItemSchema);

/** `GET /api/classes/{id}/sessions`: newest first; hidden replays only for the teacher. */
export function getSessions(classId: number): Promise<SessionItem[]> {
  return http(toPath(ROUTES.sessions, { classId }), { schema: SessionListSchema });
}

/** True while some session is still changing by itself (recording, or its replay being made). */
export function hasChangingSession(sessions: readonly SessionItem[] | undefined): boolean {
  return (sessions ?? []).some(
    (session) => session.recording.state === 'recording' || session.recording.state === 'processing',
  );
}

/** When to ask again: soon while a session changes by itself, never once it is settled or after the bound. */
export function sessionsRefetchInterval(
  sessions: readonly SessionItem[] | undefined,
  updates: number,
): number | false {
  return hasChangingSession(sessions) && updates < SESSIONS_MAX_POLLS ? SESSIONS_REFRESH_MS : false;
}

/** The class's sessions, refreshed every few seconds while one records or processes (bounded). */
export function useSessions(classId: number) {
  return useQuery({
    queryKey: classKeys.sessions(classId),
    queryFn: () => getSessions(classId),
    refetchInterval: (query) => sessionsRefetchInterval(query.state.data, query.state.dataUpdateCount),
  });
}
