import type { FastifyInstance } from 'fastify';
import type { JobHandler } from '../jobs/job-worker.ts';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { MATERIAL_JOB, materialJob } from './convert-material.ts';
import { materialFileRoutes } from './material-file-routes.ts';
import { deleteMaterial, listMaterials } from './material-store.ts';
import { MaterialUrls } from './material-urls.ts';
import { findPdfTools, type PdfTools } from './pdf-tools.ts';
import { materialRoutes } from './material-routes.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where materials' files are kept (`app.files.materials`: DATA_DIR/files by default). */
    materialFiles: FileStore;
    /** Signs and checks the short-lived URLs of materials' files. */
    materialUrls: MaterialUrls;
    /** poppler-utils and LibreOffice as found at start; null without poppler (no materials then). */
    pdfTools: PdfTools | null;
  }
}

/**
 * A class's materials: the routes, their signed files, and their files' removal with their class. The
 * conversion runs where the job worker does ({@link materialJobs}).
 */
export async function registerMaterials(app: FastifyInstance): Promise<void> {
  app.decorate('materialFiles', app.files.materials);
  app.decorate('materialUrls', new MaterialUrls(app.config.jwtSecret));
  const tools = findPdfTools();
  app.decorate('pdfTools', tools);
  if (tools === null)
    app.log.warn('no poppler-utils (pdfinfo, pdftoppm, pdftotext): materials cannot be uploaded');
  else if (tools.soffice === null) app.log.warn('no LibreOffice: only PDF materials can be uploaded');
  await app.register(materialRoutes);
  await app.register(materialFileRoutes);
  app.events.on('classDeleted', async ({ classId }) => {
    for (const row of await listMaterials(app.db, classId)) {
      await deleteMaterial(app.db, row.id);
      await app.materialFiles.removeAll(row.key);
    }
  });
}

/** The conversion job's handler, when this machine has poppler (without it, conversions wait in the queue). */
export async function materialJobs(app: FastifyInstance): Promise<Record<string, JobHandler>> {
  if (app.pdfTools === null) return {};
  const log = app.log.child({ module: 'materials' });
  return { [MATERIAL_JOB]: materialJob({ db: app.db, files: app.materialFiles, tools: app.pdfTools, log }) };
}
