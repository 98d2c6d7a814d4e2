import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Chapter, type ChapterPatch, ChapterSchema } from '@sea/contract/chapters';
import { ROUTES, toPath } from '@sea/contract/paths';
import { classKeys } from '../../../lib/class-keys.ts';
import { http } from '../../../lib/http.ts';

const ChaptersSchema = ChapterSchema.array();

const chaptersKey = (classId: number, sessionId: number) =>
  [...classKeys.session(classId, sessionId), 'chapters'] as const;

/** `GET .../sessions/{sessionId}/chapters`: the teacher's marks and the page chapters, in time order. */
export function useChapters(classId: number, sessionId: number) {
  return useQuery({
    queryKey: chaptersKey(classId, sessionId),
    queryFn: (): Promise<Chapter[]> =>
      http(toPath(ROUTES.sessionChapters, { classId, sessionId }), { schema: ChaptersSchema }),
  });
}

/** The teacher's writes to a session's chapters; each answers the whole list, which replaces the cached one. */
export function useChapterWrites(classId: number, sessionId: number) {
  const client = useQueryClient();
  const onSuccess = (chapters: Chapter[]) => client.setQueryData(chaptersKey(classId, sessionId), chapters);
  const one = (chapterId: string) => toPath(ROUTES.sessionChapter, { classId, sessionId, chapterId });
  return {
    /** A mark at `offset_ms`, or without it at the live lecture's now. */
    add: useMutation({
      mutationFn: (body: { offset_ms?: number; title: string }): Promise<Chapter[]> =>
        http(toPath(ROUTES.sessionChapters, { classId, sessionId }), {
          method: 'POST',
          json: body,
          schema: ChaptersSchema,
        }),
      onSuccess,
    }),
    change: useMutation({
      mutationFn: ({ id, ...patch }: ChapterPatch & { id: string }): Promise<Chapter[]> =>
        http(one(id), { method: 'PATCH', json: patch, schema: ChaptersSchema }),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: (id: string): Promise<Chapter[]> =>
        http(one(id), { method: 'DELETE', schema: ChaptersSchema }),
      onSuccess,
    }),
  };
}
