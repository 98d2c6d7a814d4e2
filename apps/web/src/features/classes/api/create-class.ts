import { useMutation, useQueryClient } from '@tanstack/react-query';
import { ClassItemSchema } from '@sea/contract/classes';
import type { ClassCreate, ClassItem } from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import { IMAGE_PART } from '@sea/contract/uploads';
import { http, multipart } from '../../../lib/http.ts';

export type CreateClassInput = {
  values: ClassCreate;
  banner: File | null;
  onUploadProgress?: (fraction: number) => void;
};

/** `POST /api/classes`: part `classroomCreateDto` (JSON) and an optional banner in `imagefile`. */
export function createClass({ values, banner, onUploadProgress }: CreateClassInput): Promise<ClassItem> {
  return http(ROUTES.classes, {
    method: 'POST',
    form: multipart('classroomCreateDto', values, { part: IMAGE_PART, file: banner }),
    schema: ClassItemSchema,
    ...(onUploadProgress ? { onUploadProgress } : {}),
  });
}

export function useCreateClass() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createClass,
    // The new class belongs in the lists of my page and the catalogue.
    onSuccess: () => queryClient.invalidateQueries(),
  });
}
