import { useQuery } from '@tanstack/react-query';
import { SessionBoardSchema, type SessionBoard } from '@sea/contract/board';
import { ROUTES, toPath } from '@sea/contract/paths';
import { classKeys } from '../../../lib/class-keys.ts';
import { http } from '../../../lib/http.ts';

const boardKey = (classId: number, sessionId: number) =>
  [...classKeys.session(classId, sessionId), 'board'] as const;

/** `GET .../sessions/{sessionId}/board`: the session's page changes and ink on the replay's clock. */
export function useSessionBoard(classId: number, sessionId: number) {
  return useQuery({
    queryKey: boardKey(classId, sessionId),
    queryFn: (): Promise<SessionBoard> =>
      http(toPath(ROUTES.sessionBoard, { classId, sessionId }), { schema: SessionBoardSchema }),
  });
}
