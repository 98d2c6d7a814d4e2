import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Note, type NotePatch, NoteSchema, notesFileName } from '@sea/contract/notes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { classKeys } from '../../../lib/class-keys.ts';
import { http } from '../../../lib/http.ts';
import { saveFile } from '../../../lib/save-file.ts';

const notesKey = (classId: number, sessionId: number) =>
  [...classKeys.session(classId, sessionId), 'notes'] as const;

/** `GET .../sessions/{sessionId}/notes`: the caller's own notes, in time order. */
export function useNotes(classId: number, sessionId: number) {
  return useQuery({
    queryKey: notesKey(classId, sessionId),
    queryFn: (): Promise<Note[]> =>
      http(toPath(ROUTES.sessionNotes, { classId, sessionId }), { schema: NoteSchema.array() }),
  });
}

/** Adding, changing and deleting one's notes; each refreshes the list. */
export function useNoteWrites(classId: number, sessionId: number) {
  const client = useQueryClient();
  const onSuccess = () => client.invalidateQueries({ queryKey: notesKey(classId, sessionId) });
  const one = (noteId: number) => toPath(ROUTES.sessionNote, { classId, sessionId, noteId });
  return {
    /** At `offset_ms`, or without it at the live lecture's now. */
    add: useMutation({
      mutationFn: (body: { offset_ms?: number; content: string }): Promise<Note> =>
        http(toPath(ROUTES.sessionNotes, { classId, sessionId }), {
          method: 'POST',
          json: body,
          schema: NoteSchema,
        }),
      onSuccess,
    }),
    change: useMutation({
      mutationFn: ({ id, ...patch }: NotePatch & { id: number }): Promise<Note> =>
        http(one(id), { method: 'PATCH', json: patch, schema: NoteSchema }),
      onSuccess,
    }),
    remove: useMutation({
      mutationFn: (id: number): Promise<unknown> => http(one(id), { method: 'DELETE' }),
      onSuccess,
    }),
  };
}

/**
 * `GET /api/classes/{id}/notes?format=md`, saved as a file named as the server names it ('파동 물리 메모.md':
 * a blob's link does not read its header). The route needs the bearer token, so the app's client fetches it.
 */
export async function downloadNotes(classId: number, className: string | undefined): Promise<void> {
  const text = await http<unknown>(toPath(ROUTES.classNotes, { classId }), {
    query: { format: 'md' },
    bare: true,
  });
  if (typeof text !== 'string') throw new Error('The notes export answered something else than text');
  saveFile(new Blob([text], { type: 'text/markdown;charset=utf-8' }), notesFileName(className));
}
