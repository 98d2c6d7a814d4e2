import { randomUUID } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClassIdParamsSchema } from '@sea/contract/classes';
import {
  MATERIAL_PART,
  MaterialDetailSchema,
  MaterialParamsSchema,
  MaterialPatchSchema,
  MaterialSchema,
  MaterialSearchQuerySchema,
  MaterialSearchSchema,
} from '@sea/contract/materials';
import { searchWords } from '@sea/contract/search';
import { ROUTES } from '@sea/contract/paths';
import { requireMember, requireTeacher } from '../classes/class-role.ts';
import { DoneSchema, done, envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { HttpError, notFound } from '../errors.ts';
import { enqueueJob } from '../jobs/job-queue.ts';
import { requireUser } from '../plugins/auth.ts';
import { MATERIAL_JOB, type MaterialPayload, originalKey } from './convert-material.ts';
import {
  deleteMaterial,
  findMaterial,
  insertMaterial,
  listMaterials,
  pagesOf,
  pagesWithWords,
  updateMaterial,
} from './material-store.ts';
import { materialDetail, materialView } from './material-view.ts';
import { readMaterialUpload } from './read-material-upload.ts';

const tags = ['materials'];
const security = [{ bearer: [] }];
/** Attempts of one conversion (a crash of LibreOffice may pass). */
const CONVERSION_ATTEMPTS = 2;

/**
 * A class's materials: the teacher uploads (202: converting in the job queue), renames, shares for download and
 * deletes; members list and read them. Strangers get 418, as on every class route.
 */
export async function materialRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const { db } = app;

  app.post(
    ROUTES.materials,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Upload a material (teacher; multipart `file`: PDF, PPTX, PPT, ODP or DOCX, at most 50 MB)',
        params: ClassIdParamsSchema,
        multipartFile: { part: MATERIAL_PART, description: 'PDF, PPTX, PPT, ODP or DOCX, at most 50 MB' },
        response: {
          202: envelopeSchema(MaterialSchema),
          ...errorResponses(400, 401, 404, 413, 415, 418, 503),
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { classId } = request.params;
      await requireTeacher(db, classId, user.id);
      if (app.pdfTools === null) throw noPoppler();
      const upload = await readMaterialUpload(request, app.pdfTools);
      const folder = `materials/${randomUUID()}`;
      await app.materialFiles.putBytes(originalKey(folder, upload.kind), upload.bytes);
      try {
        const row = await db.transaction(async (tx) => {
          const inserted = await insertMaterial(tx, {
            classId,
            name: upload.name,
            kind: upload.kind,
            key: folder,
          });
          const payload: MaterialPayload = { materialId: inserted.id };
          await enqueueJob(tx, MATERIAL_JOB, payload, {
            key: `${MATERIAL_JOB}:${inserted.id}`,
            maxAttempts: CONVERSION_ATTEMPTS,
          });
          return inserted;
        });
        reply.code(202);
        return ok(
          materialView(row, app.materialUrls, 'teacher'),
          '자료를 변환하고 있어요.',
          'Converting.',
          202,
        );
      } catch (error) {
        await app.materialFiles.removeAll(folder);
        throw error;
      }
    },
  );

  app.get(
    ROUTES.materials,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The class's materials, newest first (members)",
        params: ClassIdParamsSchema,
        response: { 200: envelopeSchema(z.array(MaterialSchema)), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const role = await requireMember(db, request.params.classId, user.id);
      const rows = await listMaterials(db, request.params.classId);
      const items = rows.map((row) => materialView(row, app.materialUrls, role));
      return ok(items, '자료 목록이에요.', 'Materials.');
    },
  );

  app.get(
    ROUTES.materialSearch,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: "The pages of a material whose text holds every word of `q` (members; the stage's find box)",
        params: MaterialParamsSchema,
        querystring: MaterialSearchQuerySchema,
        response: { 200: envelopeSchema(MaterialSearchSchema), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, materialId } = request.params;
      await requireMember(db, classId, user.id);
      const row = await findMaterial(db, materialId, classId);
      if (row === null) throw notFound('material');
      const pages = await pagesWithWords(db, row.id, searchWords(request.query.q));
      return ok({ pages }, '자료에서 찾은 쪽이에요.', 'Pages found.');
    },
  );

  app.get(
    ROUTES.material,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'One material with its pages and their signed image URLs (members)',
        params: MaterialParamsSchema,
        response: { 200: envelopeSchema(MaterialDetailSchema), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, materialId } = request.params;
      const role = await requireMember(db, classId, user.id);
      const row = await findMaterial(db, materialId, classId);
      if (row === null) throw notFound('material');
      const pages = row.state === 'ready' ? await pagesOf(db, row.id) : [];
      return ok(materialDetail(row, pages, app.materialUrls, role), '자료예요.', 'Material.');
    },
  );

  app.patch(
    ROUTES.material,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Rename a material or allow its download (teacher)',
        params: MaterialParamsSchema,
        body: MaterialPatchSchema,
        response: { 200: envelopeSchema(MaterialSchema), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, materialId } = request.params;
      await requireTeacher(db, classId, user.id);
      if ((await findMaterial(db, materialId, classId)) === null) throw notFound('material');
      const { name, downloadable } = request.body;
      if (name === null) throw nameRequired();
      const row = await updateMaterial(db, materialId, {
        ...(name === undefined ? {} : { name }),
        ...(downloadable === undefined ? {} : { downloadable }),
      });
      if (row === null) throw notFound('material');
      return ok(materialView(row, app.materialUrls, 'teacher'), '자료를 바꿨어요.', 'Material updated.');
    },
  );

  app.delete(
    ROUTES.material,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Delete a material and its files (teacher)',
        params: MaterialParamsSchema,
        response: { 200: DoneSchema, ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId, materialId } = request.params;
      await requireTeacher(db, classId, user.id);
      const row = await findMaterial(db, materialId, classId);
      if (row === null) throw notFound('material');
      await deleteMaterial(db, row.id);
      await app.materialFiles.removeAll(row.key);
      return done('자료를 지웠어요.', 'Material deleted.');
    },
  );
}

const noPoppler = () =>
  new HttpError(
    503,
    '서버에 poppler-utils가 없어 자료를 올릴 수 없어요. 관리자에게 알려 주세요.',
    'poppler-utils is not installed on this server.',
  );
const nameRequired = () =>
  new HttpError(400, '자료 이름을 입력해 주세요.', 'A material needs a name.', {
    name: '자료 이름을 입력해 주세요.',
  });
