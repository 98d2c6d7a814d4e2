import { HttpError } from '../errors.ts';

// What a teacher reads when an upload cannot become a material. The upload route answers these at once; the
// conversion job writes the same Korean text into the material's `error` when it finds the fault later.

/** A file that cannot be a material: the status its upload answers, and the Korean reason. */
export class MaterialError extends HttpError {}

const error = (status: 400 | 413 | 415, kor: string, eng: string) => new MaterialError(status, kor, eng);

export const MATERIAL_ERRORS = {
  tooLarge: () => error(413, '자료 파일은 50MB 이하만 올릴 수 있어요.', 'Materials are at most 50 MB.'),
  unsupported: () =>
    error(
      415,
      'PDF, PowerPoint(.pptx, .ppt), 오픈오피스 프레젠테이션(.odp), Word(.docx) 파일만 올릴 수 있어요.',
      'Only PDF, PPTX, PPT, ODP and DOCX files are accepted.',
    ),
  noOffice: () =>
    error(
      415,
      '이 서버에는 LibreOffice가 없어 PowerPoint·Word 파일을 변환할 수 없어요. PDF로 저장해서 올려 주세요.',
      'LibreOffice is not installed here: upload a PDF instead.',
    ),
  zipBomb: () =>
    error(
      400,
      '압축을 풀면 너무 커지는 파일이라 받을 수 없어요. 파일을 다시 저장해서 올려 주세요.',
      'The file unpacks to too much.',
    ),
  broken: () =>
    error(
      400,
      '파일이 손상되어 읽을 수 없어요. 파일을 다시 저장해서 올려 주세요.',
      'The file is damaged or unreadable.',
    ),
  encrypted: () =>
    error(
      400,
      '암호가 걸린 PDF는 올릴 수 없어요. 암호를 풀고 다시 올려 주세요.',
      'Encrypted PDFs are not accepted.',
    ),
  tooManyPages: (pages: number) =>
    error(
      400,
      `자료는 300쪽 이하만 올릴 수 있어요. (이 파일은 ${pages}쪽)`,
      `Materials have at most 300 pages (this one has ${pages}).`,
    ),
  noPages: () => error(400, '쪽이 하나도 없는 파일이에요.', 'The document has no pages.'),
  conversionFailed: () =>
    error(
      400,
      '파일을 PDF로 변환하지 못했어요. PDF로 저장해서 올려 주세요.',
      'The file could not be converted to PDF.',
    ),
  noFile: () => error(400, 'file 파트로 자료 파일을 보내 주세요.', 'Send the document in a `file` part.'),
} as const;

/** The Korean reason a failed conversion shows: the material error's, or a general one. */
export function failureText(cause: unknown): string {
  return cause instanceof MaterialError ? cause.messageKor : '자료를 변환하지 못했어요. 다시 올려 주세요.';
}
