import { writeFile, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import type { FastifyRequest } from 'fastify';
import {
  MATERIAL_NAME_MAX,
  MATERIAL_PART,
  MAX_MATERIAL_BYTES,
  MAX_MATERIAL_PAGES,
  type MaterialKind,
} from '@sea/contract/materials';
import { hasControlCharacter } from '@sea/contract/text';
import { HttpError } from '../errors.ts';
import { MATERIAL_ERRORS } from './material-errors.ts';
import { materialKind } from './material-kind.ts';
import { pdfPages, type PdfTools } from './pdf-tools.ts';

/** An upload that may become a material: its bytes, its real kind and its name. */
export type MaterialUpload = { bytes: Buffer; kind: MaterialKind; name: string };

/**
 * Reads the one `file` part of a material upload (at most {@link MAX_MATERIAL_BYTES}) and checks it as far as
 * can be done at once: its real kind by content, a zip that unpacks within limits, and for a PDF that poppler
 * reads it, unencrypted, within {@link MAX_MATERIAL_PAGES}. An office file is checked further by its conversion.
 * Throws the material errors (Korean), having kept nothing.
 */
export async function readMaterialUpload(request: FastifyRequest, tools: PdfTools): Promise<MaterialUpload> {
  if (!request.isMultipart()) throw MATERIAL_ERRORS.noFile();
  let bytes: Buffer;
  let fileName: string;
  try {
    const part = await request.file({ limits: { fileSize: MAX_MATERIAL_BYTES, files: 1, parts: 5 } });
    if (part === undefined || part.fieldname !== MATERIAL_PART) {
      part?.file.resume();
      throw MATERIAL_ERRORS.noFile();
    }
    fileName = part.filename;
    bytes = await part.toBuffer();
  } catch (error) {
    if (error instanceof HttpError) throw error;
    if ((error as { code?: string }).code === 'FST_REQ_FILE_TOO_LARGE') throw MATERIAL_ERRORS.tooLarge();
    throw MATERIAL_ERRORS.noFile();
  }
  if (bytes.length === 0) throw MATERIAL_ERRORS.noFile();
  const kind = await materialKind(bytes, fileName);
  if (kind !== 'pdf' && tools.soffice === null) throw MATERIAL_ERRORS.noOffice();
  if (kind === 'pdf') await checkPdf(tools, bytes);
  return { bytes, kind, name: materialName(fileName) };
}

async function checkPdf(tools: PdfTools, bytes: Buffer): Promise<void> {
  const dir = await mkdtemp(path.join(os.tmpdir(), 'sea-upload-'));
  try {
    const file = path.join(dir, 'upload.pdf');
    await writeFile(file, bytes);
    const pages = await pdfPages(tools, file);
    if (pages > MAX_MATERIAL_PAGES) throw MATERIAL_ERRORS.tooManyPages(pages);
  } finally {
    await rm(dir, { recursive: true, force: true });
  }
}

/** The material's first name: the file's, without its extension, control characters or excess length. */
export function materialName(fileName: string): string {
  const base = fileName.replace(/\.[A-Za-z0-9]{1,5}$/, '').trim();
  const clean = [...base].filter((char) => !hasControlCharacter(char, false)).join('');
  const name = [...clean].slice(0, MATERIAL_NAME_MAX).join('').trim();
  return name === '' ? '자료' : name;
}
