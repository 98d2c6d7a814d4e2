import { useQuery } from '@tanstack/react-query';
import { classKeys } from '../../../lib/class-keys.ts';
import { getSessions, SESSIONS_MAX_POLLS, SESSIONS_REFRESH_MS } from './get-sessions.ts';

/**
 * The id of the class's session that is on now (the live room's chapters and notes are pinned to it), or null
 * until the media node has reported it: asked again every few seconds until found (bounded).
 */
export function useLiveSessionId(classId: number): number | null {
  const sessions = useQuery({
    queryKey: [...classKeys.sessions(classId), 'live'] as const,
    queryFn: () => getSessions(classId),
    refetchInterval: (query) =>
      query.state.data?.some((session) => session.ended_at === null) === true ||
      query.state.dataUpdateCount >= SESSIONS_MAX_POLLS
        ? false
        : SESSIONS_REFRESH_MS,
  });
  return sessions.data?.find((session) => session.ended_at === null)?.id ?? null;
}
