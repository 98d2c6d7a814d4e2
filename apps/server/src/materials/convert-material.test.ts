import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { FastifyInstance } from 'fastify';
import { makePdf } from '../../test/documents.ts';
import { insertClass } from '../../test/classes.ts';
import { buildTestApp, createUser } from '../../test/helper.ts';
import { PermanentJobError } from '../jobs/job-worker.ts';
import { materialJob, originalKey } from './convert-material.ts';
import { findMaterial, insertMaterial, pagesOf } from './material-store.ts';
import { findPdfTools } from './pdf-tools.ts';

const tools = findPdfTools();

let app: FastifyInstance;
let classId: number;
beforeAll(async () => {
  app = await buildTestApp();
  classId = await insertClass(app, (await createUser(app)).id);
});
afterAll(() => app?.close());

const context = { signal: new AbortController().signal, attempt: 1, progress: async () => {} };
const log = { info: () => {}, warn: () => {}, error: () => {} };

/** A material whose original is `bytes`, stored as an upload leaves it (the job's input). */
async function stored(bytes: Buffer, folder: string) {
  const row = await insertMaterial(app.db, {
    classId,
    name: '자료',
    kind: 'pdf',
    key: `materials/${folder}`,
  });
  await app.materialFiles.putBytes(originalKey(row.key, 'pdf'), bytes);
  return row;
}

const filesOf = (folder: string) =>
  readdir(path.join(app.config.dataDir, 'files', 'materials', folder)).catch(() => null);

describe.skipIf(tools === null)('the conversion job', () => {
  it('fails for good with the Korean reason, and removes the files, when the file turns out bad', async () => {
    if (tools === null) return;
    const job = materialJob({ db: app.db, files: app.materialFiles, tools, log });
    const row = await stored(
      makePdf(['Secret'], { encrypted: true }),
      '00000000-0000-4000-8000-000000000001',
    );
    const error = await job.run({ materialId: row.id }, context).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PermanentJobError);
    await job.failed?.({ materialId: row.id }, error);
    expect(await findMaterial(app.db, row.id)).toMatchObject({
      state: 'failed',
      error: expect.stringMatching(/암호/),
    });
    expect(await filesOf('00000000-0000-4000-8000-000000000001')).toBeNull();
  });

  it('renders every page once more when run again (a retry after a crash), keeping one row per page', async () => {
    if (tools === null) return;
    const job = materialJob({ db: app.db, files: app.materialFiles, tools, log });
    const row = await stored(makePdf(['One', 'Two']), '00000000-0000-4000-8000-000000000002');
    await job.run({ materialId: row.id }, context);
    expect((await pagesOf(app.db, row.id)).map((page) => page.title)).toEqual(['One', 'Two']);
    expect((await filesOf('00000000-0000-4000-8000-000000000002'))?.sort()).toEqual([
      'material.pdf',
      'original.pdf',
      'page-1.webp',
      'page-2.webp',
      'thumb-1.webp',
      'thumb-2.webp',
    ]);
    // Ready: a second run (the queue's retry of a job whose worker died at the end) changes nothing.
    await job.run({ materialId: row.id }, context);
    expect(await pagesOf(app.db, row.id)).toHaveLength(2);
  });
});
