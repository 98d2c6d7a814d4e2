import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ROUTES, toPath } from '@sea/contract/paths';
import { SessionItemSchema } from '@sea/contract/sessions';
import type { SessionItem, SessionPatch } from '@sea/contract/sessions';
import { classKeys } from '../../../lib/class-keys.ts';
import { http } from '../../../lib/http.ts';

/** `PATCH /api/classes/{id}/sessions/{sessionId}` (teacher): title and hidden. */
export function patchSession(classId: number, sessionId: number, patch: SessionPatch): Promise<SessionItem> {
  return http(toPath(ROUTES.session, { classId, sessionId }), {
    method: 'PATCH',
    json: patch,
    schema: SessionItemSchema,
  });
}

/** `DELETE /api/classes/{id}/sessions/{sessionId}` (teacher): the replay's files go, the session stays. */
export function deleteReplay(classId: number, sessionId: number): Promise<unknown> {
  return http(toPath(ROUTES.session, { classId, sessionId }), { method: 'DELETE' });
}

/** `POST /api/classes/{id}/sessions/{sessionId}/remake` (teacher): '다시 만들기' of a failed or waiting replay. */
export function remakeReplay(classId: number, sessionId: number): Promise<SessionItem> {
  return http(toPath(ROUTES.sessionRemake, { classId, sessionId }), {
    method: 'POST',
    schema: SessionItemSchema,
  });
}

/** Renaming, hiding, deleting and making again a replay; each refreshes the class's sessions (and the attendance titles). */
export function useSessionMutations(classId: number) {
  const queryClient = useQueryClient();
  const refresh = () =>
    Promise.all([
      queryClient.invalidateQueries({ queryKey: classKeys.sessions(classId) }),
      queryClient.invalidateQueries({ queryKey: classKeys.attendance(classId) }),
    ]);
  const patch = useMutation({
    mutationFn: ({ sessionId, ...body }: SessionPatch & { sessionId: number }) =>
      patchSession(classId, sessionId, body),
    onSuccess: refresh,
  });
  const remove = useMutation({
    mutationFn: (sessionId: number) => deleteReplay(classId, sessionId),
    onSuccess: refresh,
  });
  const remake = useMutation({
    mutationFn: (sessionId: number) => remakeReplay(classId, sessionId),
    onSuccess: refresh,
  });
  return { patch, remove, remake };
}
