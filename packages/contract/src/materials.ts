import { z } from 'zod';
import { idText } from './ids.ts';
import { distinctWords, SEARCH_QUERY_MAX, SEARCH_WORDS_MAX, searchWords } from './search.ts';
import { hasControlCharacter, optionalText, TEXT_MESSAGES } from './text.ts';

// A class's materials: the slides (or any document) a teacher uploads to present and write on in the live room.
// Every upload becomes a PDF (office files through LibreOffice on the server) whose pages are rendered into
// images at two sizes and whose text is extracted for titles, chapters and search.

/** The kinds of file a teacher may upload; the server checks the content (magic bytes), not only the name. */
export const MATERIAL_KINDS = ['pdf', 'pptx', 'ppt', 'odp', 'docx'] as const;
export type MaterialKind = (typeof MATERIAL_KINDS)[number];

/** The `accept` attribute of the upload's file input. */
export const MATERIAL_ACCEPT = '.pdf,.pptx,.ppt,.odp,.docx';

/** The multipart part that carries the file of `POST /api/classes/{classId}/materials`. */
export const MATERIAL_PART = 'file';

/** Largest accepted upload: 50 MB. */
export const MAX_MATERIAL_BYTES = 52_428_800;

/** Most pages a material may have. */
export const MAX_MATERIAL_PAGES = 300;

/** Longest material name, in characters. */
export const MATERIAL_NAME_MAX = 100;

/**
 * The two images of every page, in pixels: a thumbnail this wide, and an image whose long side is this long
 * (sharp on a 2560 px wide screen; a portrait page is 2560 px high).
 */
export const MATERIAL_THUMBNAIL_WIDTH_PX = 320;
export const MATERIAL_IMAGE_WIDTH_PX = 2560;

/**
 * Where a material stands: `converting` (the conversion job runs or waits; `progress` 0-99), `ready` (every page
 * rendered), `failed` (`error` says why, in Korean; its files are gone).
 */
export const MATERIAL_STATES = ['converting', 'ready', 'failed'] as const;
export type MaterialState = (typeof MATERIAL_STATES)[number];

/**
 * A material as `POST` (202), the list and `PATCH` answer it. `pages` is the page count (0 until the PDF was
 * read). `download_url` is the original PDF (after conversion for an office file), short-lived and signed: for
 * the teacher always once ready, for students only when `downloadable`; null otherwise.
 */
export const MaterialSchema = z.object({
  id: z.number().int(),
  class_id: z.number().int(),
  name: z.string(),
  kind: z.enum(MATERIAL_KINDS),
  state: z.enum(MATERIAL_STATES),
  /** 0-100; 100 when ready. */
  progress: z.number().int().min(0).max(100),
  pages: z.number().int().min(0),
  downloadable: z.boolean(),
  /** Why the material failed, in Korean, or null. */
  error: z.string().nullable(),
  download_url: z.string().nullable(),
  created_at: z.string(),
});
export type Material = z.infer<typeof MaterialSchema>;

/**
 * One page of a ready material. `number` counts from 1; `title` is the page's first line of text (null when the
 * page has none); the URLs are short-lived and signed, as a replay's files; `width` and `height` are the big
 * image's pixels, its long side {@link MATERIAL_IMAGE_WIDTH_PX} (the thumbnail has the same aspect ratio,
 * {@link MATERIAL_THUMBNAIL_WIDTH_PX} wide).
 */
export const MaterialPageSchema = z.object({
  number: z.number().int().min(1),
  title: z.string().nullable(),
  image_url: z.string(),
  thumbnail_url: z.string(),
  width: z.number().int().positive(),
  height: z.number().int().positive(),
});
export type MaterialPage = z.infer<typeof MaterialPageSchema>;

/**
 * `GET /api/classes/{classId}/materials/{materialId}`: the material with its pages (empty until ready; its
 * length is the page count then).
 */
export const MaterialDetailSchema = MaterialSchema.extend({ pages: z.array(MaterialPageSchema) });
export type MaterialDetail = z.infer<typeof MaterialDetailSchema>;

/** Body of `PATCH /api/classes/{classId}/materials/{materialId}` (teacher). */
export const MaterialPatchSchema = z.object({
  name: optionalText({ max: MATERIAL_NAME_MAX, multiline: false }).optional(),
  downloadable: z.boolean().optional(),
});
export type MaterialPatch = z.infer<typeof MaterialPatchSchema>;

/** Path parameters of the routes of one material. */
export const MaterialParamsSchema = z.object({
  classId: idText('강의 번호가 올바르지 않아요.'),
  materialId: idText('자료 번호가 올바르지 않아요.'),
});
export type MaterialParams = z.infer<typeof MaterialParamsSchema>;

/**
 * Query of `GET /api/classes/{classId}/materials/{materialId}/search` (members): the words to find in the
 * material's pages' text (pdftotext's, at conversion), as the class search reads its query: at most
 * {@link SEARCH_QUERY_MAX} characters and {@link SEARCH_WORDS_MAX} words, each found as any part of a word,
 * case-insensitively; every word must be on the page.
 */
export const MaterialSearchQuerySchema = z.object({
  q: z
    .string()
    .max(SEARCH_QUERY_MAX, `검색어는 ${SEARCH_QUERY_MAX}자 이하로 입력해 주세요.`)
    .refine((query) => !hasControlCharacter(query, true), TEXT_MESSAGES.control)
    .refine((query) => searchWords(query).length > 0, '찾을 낱말을 입력해 주세요.')
    .refine(
      (query) => distinctWords(query).length <= SEARCH_WORDS_MAX,
      `검색어는 단어 ${SEARCH_WORDS_MAX}개까지 입력할 수 있어요.`,
    ),
});
export type MaterialSearchQuery = z.infer<typeof MaterialSearchQuerySchema>;

/** The answer of a material's search: the numbers of the pages holding every word, in order. */
export const MaterialSearchSchema = z.object({ pages: z.array(z.number().int().positive()) });
export type MaterialSearch = z.infer<typeof MaterialSearchSchema>;
