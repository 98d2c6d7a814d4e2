import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  AttendanceQuerySchema,
  AttendanceSchema,
  attendanceCsvAsciiName,
  attendanceCsvName,
} from '@sea/contract/attendance';
import { ClassIdParamsSchema } from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import { requireMember } from '../classes/class-role.ts';
import { attachment } from '../content-disposition.ts';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { requireUser } from '../plugins/auth.ts';
import { attendanceCsv } from './attendance-csv.ts';
import { attendanceRecord } from './attendance-record.ts';

/** A class's attendance record: every student's for the teacher, a student's own for the student. */
export async function attendanceRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    ROUTES.attendance,
    {
      onRequest: app.authenticate,
      schema: {
        tags: ['attendance'],
        security: [{ bearer: [] }],
        summary: 'Attendance and watch time per session and student (teacher: all; student: own rows)',
        description:
          'With `?format=csv`: a `text/csv; charset=utf-8` file with a UTF-8 BOM and a Korean header row, ' +
          'as an attachment named `{class name}_출석부_{YYYY-MM-DD}.csv` (RFC 5987 `filename*`; ' +
          '`filename="attendance-{classId}.csv"` for clients that read only ASCII).',
        params: ClassIdParamsSchema,
        querystring: AttendanceQuerySchema,
        response: {
          200: envelopeSchema(AttendanceSchema).or(z.string().describe('the CSV file (format=csv)')),
          ...errorResponses(400, 401, 404, 418),
        },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { classId } = request.params;
      const relation = await requireMember(app.db, classId, user.id);
      const record = await attendanceRecord(
        app.db,
        classId,
        relation === 'teacher' ? { kind: 'all' } : { kind: 'own', userId: user.id },
      );
      if (request.query.format === 'csv') {
        return reply
          .header('content-type', 'text/csv; charset=utf-8')
          .header(
            'content-disposition',
            attachment(attendanceCsvAsciiName(classId), attendanceCsvName(record.class_name, new Date())),
          )
          .header('cache-control', 'private, no-store')
          .send(attendanceCsv(record));
      }
      return ok(record, '출석 기록이에요.', 'Attendance.');
    },
  );
}
