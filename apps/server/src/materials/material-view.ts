import type { Material, MaterialDetail } from '@sea/contract/materials';
import type { MaterialKind, MaterialState } from '@sea/contract/materials';
import type { MaterialPageRow, MaterialRow } from './material-store.ts';
import { MATERIAL_FILES, type MaterialUrls } from './material-urls.ts';

/** A material as the routes answer it; the PDF's URL for the teacher, for students only when downloadable. */
export function materialView(row: MaterialRow, urls: MaterialUrls, role: 'teacher' | 'student'): Material {
  const download = row.state === 'ready' && (role === 'teacher' || row.downloadable);
  return {
    id: row.id,
    class_id: row.classId,
    name: row.name,
    kind: row.kind as MaterialKind,
    state: row.state as MaterialState,
    progress: row.progress,
    pages: row.pages,
    downloadable: row.downloadable,
    error: row.error,
    download_url: download ? urls.url(row.id, MATERIAL_FILES.pdf) : null,
    created_at: row.createdAt.toISOString(),
  };
}

/** The material with its pages and their signed image URLs. */
export function materialDetail(
  row: MaterialRow,
  pages: MaterialPageRow[],
  urls: MaterialUrls,
  role: 'teacher' | 'student',
): MaterialDetail {
  return {
    ...materialView(row, urls, role),
    pages: pages.map((page) => ({
      number: page.number,
      title: page.title,
      image_url: urls.url(row.id, MATERIAL_FILES.page(page.number)),
      thumbnail_url: urls.url(row.id, MATERIAL_FILES.thumbnail(page.number)),
      width: page.width,
      height: page.height,
    })),
  };
}
