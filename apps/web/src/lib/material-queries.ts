import { useQuery } from '@tanstack/react-query';
import {
  MaterialDetailSchema,
  MaterialSchema,
  MaterialSearchSchema,
  type Material,
  type MaterialDetail,
  type MaterialSearch,
} from '@sea/contract/materials';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from './http.ts';

/** While a material converts, its list is read again this often to show the progress. */
export const MATERIAL_POLL_MS = 1_500;

/**
 * Query keys and reads of a class's materials (materials.ts), shared by the class page's management and the
 * live room's board.
 */
export const materialKeys = {
  list: (classId: number) => ['classes', classId, 'materials'] as const,
  detail: (classId: number, materialId: number) => ['classes', classId, 'materials', materialId] as const,
  search: (classId: number, materialId: number, query: string) =>
    ['classes', classId, 'materials', materialId, 'search', query] as const,
};

const MaterialListSchema = MaterialSchema.array();

/** `GET /api/classes/{classId}/materials`: the class's materials, newest first. */
export function fetchMaterials(classId: number): Promise<Material[]> {
  return http(toPath(ROUTES.materials, { classId }), { schema: MaterialListSchema });
}

/** `GET /api/classes/{classId}/materials/{materialId}`: one material with its pages. */
export function fetchMaterial(classId: number, materialId: number): Promise<MaterialDetail> {
  return http(toPath(ROUTES.material, { classId, materialId }), { schema: MaterialDetailSchema });
}

/** The class's materials, read again every {@link MATERIAL_POLL_MS} while one of them converts. */
export function useMaterials(classId: number) {
  return useQuery({
    queryKey: materialKeys.list(classId),
    queryFn: () => fetchMaterials(classId),
    refetchInterval: (query) =>
      query.state.data?.some((material) => material.state === 'converting') ? MATERIAL_POLL_MS : false,
  });
}

/** One material with its pages; nothing is read while `materialId` is null or the whiteboard's 0. */
export function useMaterial(classId: number, materialId: number | null) {
  return useQuery({
    queryKey: materialKeys.detail(classId, materialId ?? 0),
    queryFn: () => fetchMaterial(classId, materialId ?? 0),
    enabled: materialId !== null && materialId > 0,
    // The page URLs are signed for at least 3 hours, the same within an hour (the images stay cached): read
    // again every hour, so a long lecture never holds URLs that ran out.
    staleTime: 30 * 60_000,
    refetchInterval: 60 * 60_000,
  });
}

/** `GET /api/classes/{classId}/materials/{materialId}/search?q=`: the pages whose text holds every word. */
export function searchMaterial(classId: number, materialId: number, query: string): Promise<MaterialSearch> {
  const path = toPath(ROUTES.materialSearch, { classId, materialId });
  return http(`${path}?q=${encodeURIComponent(query)}`, { schema: MaterialSearchSchema });
}

/** The pages of a material holding the words of `query`; nothing is read for a blank query or the whiteboard. */
export function useMaterialSearch(classId: number, materialId: number | null, query: string) {
  const trimmed = query.trim();
  return useQuery({
    queryKey: materialKeys.search(classId, materialId ?? 0, trimmed),
    queryFn: () => searchMaterial(classId, materialId ?? 0, trimmed),
    enabled: materialId !== null && materialId > 0 && trimmed !== '',
    staleTime: Infinity,
  });
}
