import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  ClassCreateSchema,
  ClassIdParamsSchema,
  ClassItemSchema,
  ClassListQuerySchema,
  ClassUpdateSchema,
} from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import { DoneSchema, done, envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { notFound } from '../errors.ts';
import { requireUser } from '../plugins/auth.ts';
import { writeLimit } from '../plugins/rate-limit.ts';
import { cachedRead } from '../plugins/read-cache.ts';
import { readImageForm } from '../uploads/read-image-form.ts';
import { toClassItem } from './class-item.ts';
import { relationTo, requireTeacher, ROLE_NAMES } from './class-role.ts';
import { categoryExists, createClass, deleteClass, updateClass } from './class-store.ts';
import { findClassItem } from './class-item.ts';
import { listClasses } from './list-classes.ts';
import { unfoldTarget } from './list-query.ts';

// `target=` and `target=none` both mean "all classes", as older clients send them, and `target=live?page=0`
// means `target=live&page=0` (see unfoldTarget). The top ten has no pages and no categories, so `page` and
// `category` are not read for it at all (the original API spec: ignored), whatever they hold.
const ListQuerySchema = z.preprocess((raw) => {
  const query = unfoldTarget(raw);
  if (typeof query !== 'object' || query === null) return query;
  const { target } = query as Record<string, unknown>;
  if (target === '' || target === 'none') return { ...query, target: undefined };
  if (target === 'topten') return { target };
  return query;
}, ClassListQuerySchema);
const LIST_DESCRIPTION =
  '`target`: absent, empty or `none` (all classes), `live` (live now), `enrolled` (the caller’s classes as a ' +
  'student; bearer), `created` (the caller’s classes as the teacher; bearer), `topten` (the 10 classes with ' +
  'the most enrolled students, most first, ties newest first). `page` (from 0) and `category` (an existing ' +
  'category id, else 404) apply to every target but `topten`, which ignores both without reading them: any ' +
  'value, even a malformed one, gives the same ten. Past the end a page is `[]`. For older clients, a ' +
  'target followed by a second `?` (`target=live?page=0`) reads as that target with the parameters after ' +
  'the `?` (`target=live&page=0`). `q` (up to 50 characters and 5 distinct words, else 400; blank means none; ' +
  '`%` and `_` are plain characters) keeps the classes whose title, ' +
  'description, category or teacher’s nickname contain every word of it, in part too (`드로` finds `드로잉`), ' +
  'best matches first (a word in the title counts most, then the nickname, the category, the description); ' +
  'a search ranks at most its first 500 matches (`total` at most 500), and one that runs past 3 s on ' +
  'PostgreSQL is stopped with 503. ' +
  '`sort` orders instead: `newest`, `students` (most enrolled first) or `rating` (best mean stars first, ' +
  'classes without reviews last). Both apply to every target but `topten`. ' +
  '`total` beside `data` is how many classes the whole list holds, so a client can show an exact count ' +
  'before it has loaded every page.';
const PUBLIC_TARGETS = [undefined, '', 'none', 'live', 'topten'];
// `total` sits beside `data` (not in it), so clients that read `data` as the array keep working.
const ClassListEnvelopeSchema = envelopeSchema(z.array(ClassItemSchema)).extend({
  total: z
    .number()
    .int()
    .describe('How many classes the whole list holds (every page; `topten`: the classes answered)'),
});

function isPublicList(raw: unknown): boolean {
  const query = unfoldTarget(raw);
  const target =
    typeof query === 'object' && query !== null ? (query as Record<string, unknown>).target : undefined;
  return PUBLIC_TARGETS.includes(target as string | undefined);
}
const security = [{ bearer: [] }];
const tags = ['classes'];

/** Class list, detail, create, update, delete and the caller's role. */
export async function classRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const imageUrl = (key: string) => app.storage.url(key);
  // Only lists that are the same for every caller are cached (not target=enrolled or created).
  const listCache = cachedRead(app, (request) => !isPublicList(request.query));
  const detailCache = cachedRead(app);

  app.get(
    ROUTES.classes,
    {
      onRequest: [listCache.onRequest, app.identify],
      onSend: listCache.onSend,
      schema: {
        tags,
        summary:
          'A page of 12 classes, newest first or searched and sorted (bearer for enrolled and created)',
        description: LIST_DESCRIPTION,
        querystring: ListQuerySchema,
        response: { 200: ClassListEnvelopeSchema, ...errorResponses(400, 401, 404, 503) },
      },
    },
    async (request) => {
      const { page, category, target, q, sort } = request.query;
      if (category !== undefined && !(await categoryExists(app.db, category))) throw notFound('category');
      const { rows, total } = await listClasses(app.db, {
        page,
        category,
        target,
        q,
        sort,
        accountId: request.auth?.accountId ?? null,
      });
      const items = rows.map((row) => toClassItem(row, imageUrl));
      return { ...ok(items, '강의 목록이에요.', 'Classes.'), total };
    },
  );

  app.post(
    ROUTES.classes,
    {
      onRequest: app.authenticate,
      config: writeLimit(app, 'classCreation'),
      schema: {
        tags,
        security,
        summary: 'Open a class (multipart: classroomCreateDto, optional imagefile)',
        multipartBody: { jsonPart: 'classroomCreateDto', schema: ClassCreateSchema },
        response: { 200: envelopeSchema(ClassItemSchema), ...errorResponses(400, 401, 413, 415, 429) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const form = await readImageForm(request, {
        jsonPart: 'classroomCreateDto',
        kind: 'banner',
        schema: ClassCreateSchema,
      });
      const banner = form.image ? await app.storage.save('banner', form.image) : null;
      try {
        const row = await createClass(app.db, user.id, form.json, banner);
        return ok(toClassItem(row, imageUrl), '강의를 개설했어요.', 'Class created.');
      } catch (error) {
        if (banner !== null) await app.storage.remove(banner);
        throw error;
      }
    },
  );

  app.get(
    ROUTES.class,
    {
      onRequest: detailCache.onRequest,
      onSend: detailCache.onSend,
      schema: {
        tags,
        summary: 'One class',
        params: ClassIdParamsSchema,
        response: { 200: envelopeSchema(ClassItemSchema), ...errorResponses(400, 404) },
      },
    },
    async (request) => {
      const row = await findClassItem(app.db, request.params.classId);
      if (row === null) throw notFound('class');
      return ok(toClassItem(row, imageUrl), '강의 정보예요.', 'Class.');
    },
  );

  app.patch(
    ROUTES.class,
    {
      onRequest: app.authenticate,
      config: writeLimit(app, 'upload'),
      schema: {
        tags,
        security,
        summary: 'Edit a class (teacher; multipart: classroomUpdateDto, optional imagefile)',
        params: ClassIdParamsSchema,
        multipartBody: { jsonPart: 'classroomUpdateDto', schema: ClassUpdateSchema },
        response: {
          200: envelopeSchema(ClassItemSchema),
          ...errorResponses(400, 401, 404, 413, 415, 418, 429),
        },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId } = request.params;
      await requireTeacher(app.db, classId, user.id);
      const before = await findClassItem(app.db, classId);
      const form = await readImageForm(request, {
        jsonPart: 'classroomUpdateDto',
        kind: 'banner',
        schema: ClassUpdateSchema,
      });
      const banner = form.image ? await app.storage.save('banner', form.image) : undefined;
      let result;
      try {
        result = await updateClass(app.db, classId, form.json, banner);
      } catch (error) {
        if (banner !== undefined) await app.storage.remove(banner);
        throw error;
      }
      if (result.replacedBanner !== null) await app.storage.remove(result.replacedBanner);
      const announcement = result.row.announcement;
      if (announcement !== null && announcement !== before?.announcement) {
        void app.notifier.announcementPosted(classId);
      }
      return ok(toClassItem(result.row, imageUrl), '강의 정보를 수정했어요.', 'Class updated.');
    },
  );

  app.delete(
    ROUTES.classDelete,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Delete a class (teacher; soft delete)',
        params: ClassIdParamsSchema,
        response: { 200: DoneSchema, ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await requireTeacher(app.db, request.params.classId, user.id);
      await deleteClass(app.db, request.params.classId);
      await app.events.emit('classDeleted', { classId: request.params.classId });
      return done('강의를 삭제했어요.', 'Class deleted.');
    },
  );

  app.get(
    ROUTES.classRole,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The caller’s role in a class: 강사, 수강생 or 관계없음',
        params: ClassIdParamsSchema,
        response: {
          200: envelopeSchema(z.enum(['강사', '수강생', '관계없음'])),
          ...errorResponses(400, 401, 404),
        },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const relation = await relationTo(app.db, request.params.classId, user.id);
      return ok(ROLE_NAMES[relation], '강의에서의 역할이에요.', 'Role in the class.');
    },
  );
}
