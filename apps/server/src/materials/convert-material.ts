import { mkdir, mkdtemp, rm } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { loadSharp } from '../load-sharp.ts';
import { z } from 'zod';
import { MAX_MATERIAL_PAGES, MATERIAL_THUMBNAIL_WIDTH_PX } from '@sea/contract/materials';
import type { Database } from '../db/database.ts';
import { type JobContext, type JobHandler, type JobLog, PermanentJobError } from '../jobs/job-worker.ts';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { failureText, MATERIAL_ERRORS, MaterialError } from './material-errors.ts';
import { findMaterial, markReady, type MaterialPageRow, updateMaterial } from './material-store.ts';
import { MATERIAL_FILES } from './material-urls.ts';
import { officeToPdf, pageTexts, pageTitle, pdfPages, type PdfTools, renderPages } from './pdf-tools.ts';

/** The queue's name for a material's conversion. */
export const MATERIAL_JOB = 'material';
export const MaterialPayloadSchema = z.object({ materialId: z.number().int().positive() });
export type MaterialPayload = z.infer<typeof MaterialPayloadSchema>;

export type MaterialJobDeps = { db: Database; files: FileStore; tools: PdfTools; log: JobLog };

/** Pages pdftoppm renders in one run. */
const PAGES_PER_RUN = 8;
/** Shares of the progress bar: the PDF made (office files) and read; the rest goes page by page. */
const PDF_READY = 10;
/** WebP quality of the page images: text stays crisp at half the PNG's bytes (docs/classroom.md). */
const WEBP_QUALITY = 82;

/** The original upload's key in the material's folder. */
export function originalKey(folder: string, kind: string): string {
  return `${folder}/original.${kind}`;
}

/**
 * Turns an uploaded material into pages: an office file into a PDF with LibreOffice, then every page rendered
 * (WebP, the big image and its thumbnail) and its text read, all stored in the material's folder; the pages'
 * rows and the `ready` state are written together at the end. A file that cannot become a material fails for
 * good with its Korean reason, and its folder goes.
 */
export function materialJob(deps: MaterialJobDeps): JobHandler {
  return {
    run: (payload, context) => convert(deps, MaterialPayloadSchema.parse(payload), context),
    failed: async (payload, error) => {
      const parsed = MaterialPayloadSchema.safeParse(payload);
      if (!parsed.success) return;
      const row = await findMaterial(deps.db, parsed.data.materialId);
      if (row === null) return;
      await deps.files.removeAll(row.key);
      const reason = error instanceof PermanentJobError ? error.message : failureText(error);
      await updateMaterial(deps.db, row.id, { state: 'failed', progress: 0, error: reason });
    },
  };
}

async function convert(deps: MaterialJobDeps, payload: MaterialPayload, context: JobContext): Promise<void> {
  const { db, files, tools } = deps;
  const row = await findMaterial(db, payload.materialId);
  if (row === null || row.state !== 'converting') return;
  const work = await mkdtemp(path.join(os.tmpdir(), 'sea-material-'));
  try {
    const input = path.join(work, `original.${row.kind}`);
    await files.copyOut(originalKey(row.key, row.kind), input);
    const pdf = row.kind === 'pdf' ? input : await toPdf(tools, input, work, context.signal);
    const count = await pdfPages(tools, pdf, context.signal);
    if (count > MAX_MATERIAL_PAGES) throw MATERIAL_ERRORS.tooManyPages(count);
    await updateMaterial(db, row.id, { pages: count });
    const texts = await pageTexts(tools, pdf, context.signal);
    await context.progress(PDF_READY);
    await updateMaterial(db, row.id, { progress: PDF_READY });
    const pages: Omit<MaterialPageRow, 'materialId'>[] = [];
    for (let first = 1; first <= count; first += PAGES_PER_RUN) {
      const last = Math.min(count, first + PAGES_PER_RUN - 1);
      const dir = path.join(work, `pages-${first}`);
      const rendered = await renderPages(tools, pdf, { first, last, dir: await mkdirp(dir) }, context.signal);
      for (let number = first; number <= last; number += 1) {
        const png = rendered.get(number);
        if (png === undefined) throw MATERIAL_ERRORS.broken();
        const size = await storePage(files, row.key, number, png);
        const text = (texts[number - 1] ?? '').trim();
        pages.push({ number, title: pageTitle(text), text, ...size });
      }
      await rm(dir, { recursive: true, force: true });
      const percent = PDF_READY + Math.floor(((100 - PDF_READY - 1) * last) / count);
      await context.progress(percent);
      await updateMaterial(db, row.id, { progress: percent });
    }
    await files.put(`${row.key}/${MATERIAL_FILES.pdf}`, pdf);
    const kept = await db.transaction(async (tx) => {
      if ((await findMaterial(tx, row.id)) === null) return false;
      await markReady(tx, row.id, pages);
      return true;
    });
    // Deleted while it was converting: what was stored goes too.
    if (!kept) await files.removeAll(row.key);
  } catch (error) {
    if (error instanceof MaterialError) throw new PermanentJobError(error.messageKor, { cause: error });
    throw error;
  } finally {
    await rm(work, { recursive: true, force: true });
  }
}

async function toPdf(tools: PdfTools, input: string, work: string, signal: AbortSignal): Promise<string> {
  if (tools.soffice === null) throw MATERIAL_ERRORS.noOffice();
  const outDir = await mkdirp(path.join(work, 'pdf'));
  return officeToPdf(tools.soffice, input, { outDir, profileDir: path.join(work, 'profile') }, signal);
}

/** Stores a page's image (WebP) and thumbnail; answers the image's size. */
async function storePage(
  files: FileStore,
  folder: string,
  number: number,
  png: string,
): Promise<{ width: number; height: number }> {
  const sharp = await loadSharp();
  const { data, info } = await sharp(png)
    .webp({ quality: WEBP_QUALITY })
    .toBuffer({ resolveWithObject: true });
  await files.putBytes(`${folder}/${MATERIAL_FILES.page(number)}`, data);
  const thumbnail = await sharp(png)
    .resize({ width: MATERIAL_THUMBNAIL_WIDTH_PX })
    .webp({ quality: WEBP_QUALITY })
    .toBuffer();
  await files.putBytes(`${folder}/${MATERIAL_FILES.thumbnail(number)}`, thumbnail);
  return { width: info.width, height: info.height };
}

async function mkdirp(dir: string): Promise<string> {
  await mkdir(dir, { recursive: true });
  return dir;
}
