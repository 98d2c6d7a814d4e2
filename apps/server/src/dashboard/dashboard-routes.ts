import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClassIdParamsSchema, ClassItemSchema, ClassStudentSchema } from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import { ScheduleSchema } from '@sea/contract/schedules';
import { findClassItem, toClassItem } from '../classes/class-item.ts';
import { requireMember, requireTeacher, ROLE_NAMES } from '../classes/class-role.ts';
import { listStudents } from '../enrolments/enrol.ts';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { notFound } from '../errors.ts';
import { requireUser } from '../plugins/auth.ts';
import { listSchedules } from '../schedules/schedule-store.ts';

const DashboardSchema = ClassItemSchema.extend({
  role: z.enum(['강사', '수강생']),
  schedules: z.array(ScheduleSchema),
});
const security = [{ bearer: [] }];
const tags = ['classes'];

/** The class dashboard (teacher or student) and the teacher's student list. */
export async function dashboardRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const imageUrl = (key: string) => app.storage.url(key);

  app.get(
    ROUTES.dashboard,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Class item with the caller’s role and the schedule (teacher or student)',
        params: ClassIdParamsSchema,
        response: { 200: envelopeSchema(DashboardSchema), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const { classId } = request.params;
      const relation = await requireMember(app.db, classId, user.id);
      const [row, schedules] = await Promise.all([
        findClassItem(app.db, classId),
        listSchedules(app.db, classId),
      ]);
      if (row === null) throw notFound('class');
      const role = ROLE_NAMES[relation] as '강사' | '수강생';
      return ok({ ...toClassItem(row, imageUrl), role, schedules }, '강의 대시보드예요.', 'Class dashboard.');
    },
  );

  app.get(
    ROUTES.dashboardStudents,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The students of a class with their enrolment time (teacher)',
        params: ClassIdParamsSchema,
        response: { 200: envelopeSchema(z.array(ClassStudentSchema)), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await requireTeacher(app.db, request.params.classId, user.id);
      const students = await listStudents(app.db, request.params.classId, imageUrl);
      return ok(students, '수강생 목록이에요.', 'Students.');
    },
  );
}
