import { useQuery } from '@tanstack/react-query';
import type { SessionItem } from '@sea/contract/sessions';
import { classKeys } from '../../../lib/class-keys.ts';
import { getSessions, SESSIONS_MAX_POLLS, SESSIONS_REFRESH_MS } from './get-sessions.ts';

/**
 * The class's session that is on now (the live room's chapters and notes are pinned to it, its start is the
 * lecture's), or null until the media node has reported it: asked again every few seconds until found
 * (bounded).
 */
export function useLiveSession(classId: number): SessionItem | null {
  const sessions = useQuery({
    queryKey: [...classKeys.sessions(classId), 'live'] as const,
    queryFn: () => getSessions(classId),
    refetchInterval: (query) =>
      query.state.data?.some((session) => session.ended_at === null) === true ||
      query.state.dataUpdateCount >= SESSIONS_MAX_POLLS
        ? false
        : SESSIONS_REFRESH_MS,
  });
  return sessions.data?.find((session) => session.ended_at === null) ?? null;
}

/** The id of the class's session that is on now, or null until it is reported (see {@link useLiveSession}). */
export function useLiveSessionId(classId: number): number | null {
  return useLiveSession(classId)?.id ?? null;
}
