import { useMutation, useQueryClient } from '@tanstack/react-query';
import { MaterialSchema, MATERIAL_PART, type Material, type MaterialPatch } from '@sea/contract/materials';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';
import { materialKeys } from '../../../lib/material-queries.ts';

/** `POST /api/classes/{classId}/materials`: one file; answers the material, converting. */
export function uploadMaterial(
  classId: number,
  file: File,
  onUploadProgress?: (fraction: number) => void,
): Promise<Material> {
  const form = new FormData();
  form.append(MATERIAL_PART, file);
  return http(toPath(ROUTES.materials, { classId }), {
    method: 'POST',
    form,
    schema: MaterialSchema,
    ...(onUploadProgress ? { onUploadProgress } : {}),
  });
}

/** `PATCH .../materials/{materialId}`: the name or the students' download. */
export function patchMaterial(classId: number, materialId: number, patch: MaterialPatch): Promise<Material> {
  return http(toPath(ROUTES.material, { classId, materialId }), {
    method: 'PATCH',
    json: patch,
    schema: MaterialSchema,
  });
}

/** `DELETE .../materials/{materialId}`: the material and its files. */
export function deleteMaterial(classId: number, materialId: number): Promise<unknown> {
  return http(toPath(ROUTES.material, { classId, materialId }), { method: 'DELETE' });
}

/** The teacher's changes to the class's materials; each refreshes the list. */
export function useMaterialMutations(classId: number) {
  const client = useQueryClient();
  const refresh = () => client.invalidateQueries({ queryKey: materialKeys.list(classId) });
  return {
    patch: useMutation({
      mutationFn: ({ materialId, patch }: { materialId: number; patch: MaterialPatch }) =>
        patchMaterial(classId, materialId, patch),
      onSettled: refresh,
    }),
    remove: useMutation({
      mutationFn: (materialId: number) => deleteMaterial(classId, materialId),
      onSettled: refresh,
    }),
    refresh,
  };
}
