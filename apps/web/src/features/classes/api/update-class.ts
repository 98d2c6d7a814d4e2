import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ClassItemSchema } from '@sea/contract/classes';
import type { ClassItem, ClassUpdate } from '@sea/contract/classes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { IMAGE_PART } from '@sea/contract/uploads';
import { http, multipart } from '../../../lib/http.ts';

export type UpdateClassInput = {
  values: ClassUpdate;
  banner: File | null;
  onUploadProgress?: (fraction: number) => void;
};

/** `PATCH /api/classes/{id}`: part `classroomUpdateDto` (JSON) and an optional new banner. */
export function updateClass(
  classId: number,
  { values, banner, onUploadProgress }: UpdateClassInput,
): Promise<ClassItem> {
  return http(toPath(ROUTES.class, { classId }), {
    method: 'PATCH',
    form: multipart('classroomUpdateDto', values, { part: IMAGE_PART, file: banner }),
    schema: ClassItemSchema,
    ...(onUploadProgress ? { onUploadProgress } : {}),
  });
}

export function useUpdateClass(classId: number) {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: UpdateClassInput) => updateClass(classId, input),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: ['classes', classId] }),
  });
}
