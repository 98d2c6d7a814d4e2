import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { type Note, type NotePatch, NoteSchema } from '@sea/contract/notes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { classKeys } from '../../../lib/class-keys.ts';
import { http } from '../../../lib/http.ts';

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
 * `GET /api/classes/{id}/notes?format=md`, saved as a file. The route needs the bearer token, so the app's
 * client fetches it and the browser saves the blob.
 */
export async function downloadNotes(classId: number): Promise<void> {
  const text = await http<unknown>(toPath(ROUTES.classNotes, { classId }), {
    query: { format: 'md' },
    bare: true,
  });
  if (typeof text !== 'string') throw new Error('The notes export answered something else than text');
  const url = URL.createObjectURL(new Blob([text], { type: 'text/markdown;charset=utf-8' }));
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = `notes-${classId}.md`;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the download; the URL is not needed past it.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}
