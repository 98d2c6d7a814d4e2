import type { MaterialKind } from '@sea/contract/materials';
import { MATERIAL_ERRORS } from './material-errors.ts';
import { ZipError, zipEntries } from './zip-entries.ts';

const PDF = Buffer.from('%PDF-');
/** The OLE2 compound file of legacy Office documents (`.ppt`). */
const OLE = Buffer.from([0xd0, 0xcf, 0x11, 0xe0, 0xa1, 0xb1, 0x1a, 0xe1]);
const ZIP = Buffer.from([0x50, 0x4b, 0x03, 0x04]);
const ODP_MIME = 'application/vnd.oasis.opendocument.presentation';

/**
 * What a file really is, from its content: a PDF by its header; a legacy PowerPoint by the OLE2 header and its
 * `.ppt` name (Word and Excel share that header); a zip by what it holds (`ppt/presentation.xml`,
 * `word/document.xml`, or the OpenDocument presentation's `mimetype`), after checking it unpacks within limits.
 * Throws the material errors: unsupported kind, zip bomb, damaged zip.
 */
export async function materialKind(bytes: Buffer, fileName: string): Promise<MaterialKind> {
  if (bytes.subarray(0, PDF.length).equals(PDF)) return 'pdf';
  if (bytes.subarray(0, OLE.length).equals(OLE)) {
    if (/\.ppt$/i.test(fileName)) return 'ppt';
    throw MATERIAL_ERRORS.unsupported();
  }
  if (!bytes.subarray(0, ZIP.length).equals(ZIP)) throw MATERIAL_ERRORS.unsupported();
  let entries;
  try {
    entries = await zipEntries(bytes);
  } catch (error) {
    if (error instanceof ZipError && error.bomb) throw MATERIAL_ERRORS.zipBomb();
    throw MATERIAL_ERRORS.broken();
  }
  const names = new Set(entries.map((entry) => entry.name));
  if (names.has('ppt/presentation.xml')) return 'pptx';
  if (names.has('word/document.xml')) return 'docx';
  const mimetype = entries.find((entry) => entry.name === 'mimetype');
  if (mimetype && (await mimetype.read()).toString('utf8').trim() === ODP_MIME) return 'odp';
  throw MATERIAL_ERRORS.unsupported();
}
