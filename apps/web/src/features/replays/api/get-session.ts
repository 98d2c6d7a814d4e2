import { useQuery } from '@tanstack/react-query';
import { z } from 'zod';
import { ROUTES, toPath } from '@sea/contract/paths';
import {
  SessionChatMessageSchema,
  SessionClassroomSchema,
  SessionDetailSchema,
} from '@sea/contract/sessions';
import type { SessionChatMessage, SessionClassroom, SessionDetail } from '@sea/contract/sessions';
import { classKeys } from '../../../lib/class-keys.ts';
import { http } from '../../../lib/http.ts';

/** `GET /api/classes/{id}/sessions/{sessionId}`: the session with the caller's resume point. */
export function getSession(classId: number, sessionId: number): Promise<SessionDetail> {
  return http(toPath(ROUTES.session, { classId, sessionId }), { schema: SessionDetailSchema });
}

const SessionChatSchema = z.array(SessionChatMessageSchema);

/** `GET /api/classes/{id}/sessions/{sessionId}/chat`: the session's messages in time order. */
export function getSessionChat(classId: number, sessionId: number): Promise<SessionChatMessage[]> {
  return http(toPath(ROUTES.sessionChat, { classId, sessionId }), { schema: SessionChatSchema });
}

/** `GET /api/classes/{id}/sessions/{sessionId}/classroom`: the session's questions and polls at their moments. */
export function getSessionClassroom(classId: number, sessionId: number): Promise<SessionClassroom> {
  return http(toPath(ROUTES.sessionClassroom, { classId, sessionId }), { schema: SessionClassroomSchema });
}

/**
 * One session for the replay page. Read once per visit (`staleTime: 0`, no refetch): the signed URLs and
 * the resume point are fresh when the page opens, and a refetch mid-play would only reload the video with new URLs.
 */
export function useSession(classId: number, sessionId: number) {
  return useQuery({
    queryKey: classKeys.session(classId, sessionId),
    queryFn: () => getSession(classId, sessionId),
    staleTime: 0,
    refetchOnWindowFocus: false,
    refetchOnReconnect: false,
  });
}

/**
 * The session's chat; `enabled` once the session itself could be read (a stranger's browser would log one more
 * refused request for nothing).
 */
export function useSessionChat(classId: number, sessionId: number, enabled = true) {
  return useQuery({
    queryKey: classKeys.sessionChat(classId, sessionId),
    queryFn: () => getSessionChat(classId, sessionId),
    enabled,
  });
}

/** The session's questions and polls; `enabled` as {@link useSessionChat}'s. */
export function useSessionClassroom(classId: number, sessionId: number, enabled = true) {
  return useQuery({
    queryKey: classKeys.sessionClassroom(classId, sessionId),
    queryFn: () => getSessionClassroom(classId, sessionId),
    enabled,
  });
}
