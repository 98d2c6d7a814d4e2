import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClassIdParamsSchema } from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import {
  ClassProgressOfStudentsSchema,
  ClassProgressSchema,
  ProgressQuerySchema,
  progressCsvName,
} from '@sea/contract/progress';
import { attachment } from '../content-disposition.ts';
import { requireMember } from '../classes/class-role.ts';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { roleError } from '../errors.ts';
import { requireUser } from '../plugins/auth.ts';
import { classProgress, studentsProgress } from './class-progress.ts';
import { progressCsv } from './progress-csv.ts';

/** A class's replay progress (진도율): a student's own, every student's for the teacher. */
export async function progressRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    ROUTES.progress,
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['attendance'],
        security: [{ bearer: [] }],
        summary: 'Replay progress: a student’s own per replay; the teacher’s per student (`?format=csv`)',
        description:
          'Each second of a replay counts once however often it was played; a replay is completed at 90 %. ' +
          'A student gets `{class_percent, sessions}`, the teacher `{students}`. With `?format=csv` (the ' +
          'teacher only): a UTF-8 CSV with a BOM, named `진도율-{classId}.csv`.',
        params: ClassIdParamsSchema,
        querystring: ProgressQuerySchema,
        response: {
          200: envelopeSchema(z.union([ClassProgressSchema, ClassProgressOfStudentsSchema])).or(
            z.string().describe('the CSV file (format=csv, teacher)'),
          ),
          ...errorResponses(400, 401, 404, 418),
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { classId } = request.params;
      const relation = await requireMember(app.db, classId, user.id);
      if (relation === 'student') {
        if (request.query.format === 'csv') {
          throw roleError('진도율 파일은 강사만 받을 수 있어요.', 'Only the teacher can download progress.');
        }
        const own = (await classProgress(app.db, classId, [user.id])).get(user.id);
        return ok(own ?? { class_percent: 0, sessions: [] }, '진도율이에요.', 'Progress.');
      }
      const students = await studentsProgress(app.db, classId);
      if (request.query.format === 'csv') {
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header('content-disposition', attachment(`progress-${classId}.csv`, progressCsvName(classId)))
          .header('cache-control', 'private, no-store')
          .send(progressCsv(students));
      }
      return ok({ students }, '수강생 진도율이에요.', 'Progress of the students.');
    },
  );
}
