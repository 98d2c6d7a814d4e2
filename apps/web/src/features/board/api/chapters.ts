import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { ChapterSchema, SessionBoardSchema, type Chapter, type SessionBoard } from '@sea/contract/board';
import { ROUTES, toPath } from '@sea/contract/paths';
import { classKeys } from '../../../lib/class-keys.ts';
import { http } from '../../../lib/http.ts';

const ChaptersSchema = ChapterSchema.array();

const boardKey = (classId: number, sessionId: number) =>
  [...classKeys.session(classId, sessionId), 'board'] as const;
const chaptersKey = (classId: number, sessionId: number) =>
  [...classKeys.session(classId, sessionId), 'chapters'] as const;

/** `GET .../sessions/{sessionId}/board`: the session's page changes and ink on the replay's clock. */
export function useSessionBoard(classId: number, sessionId: number) {
  return useQuery({
    queryKey: boardKey(classId, sessionId),
    queryFn: (): Promise<SessionBoard> =>
      http(toPath(ROUTES.sessionBoard, { classId, sessionId }), { schema: SessionBoardSchema }),
  });
}

/** `GET .../sessions/{sessionId}/chapters`: the pages stayed on at least 10 s, in time order. */
export function useChapters(classId: number, sessionId: number) {
  return useQuery({
    queryKey: chaptersKey(classId, sessionId),
    queryFn: (): Promise<Chapter[]> =>
      http(toPath(ROUTES.sessionChapters, { classId, sessionId }), { schema: ChaptersSchema }),
  });
}

/** The teacher renames a chapter (a blank title goes back to the page's own); answers the whole list. */
export function useRenameChapter(classId: number, sessionId: number) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, title }: { id: number; title: string }): Promise<Chapter[]> =>
      http(toPath(ROUTES.sessionChapters, { classId, sessionId }), {
        method: 'PATCH',
        json: { chapters: [{ id, title }] },
        schema: ChaptersSchema,
      }),
    onSuccess: (chapters) => client.setQueryData(chaptersKey(classId, sessionId), chapters),
  });
}
