import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ClassIdParamsSchema } from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import {
  ScheduleCreateSchema,
  ScheduleDeleteSchema,
  ScheduleSchema,
  UPCOMING_SCHEDULE_SIZE,
} from '@sea/contract/schedules';
import { requireMember, requireTeacher } from '../classes/class-role.ts';
import { DoneSchema, done, envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { requireUser } from '../plugins/auth.ts';
import { addSchedule, listSchedules, listUpcomingSchedules, removeSchedule } from './schedule-store.ts';

const security = [{ bearer: [] }];
const tags = ['schedules'];

/** A class's schedule: read by members, written by the teacher; its next entries shown to anyone. */
export async function scheduleRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();

  app.get(
    ROUTES.upcomingSchedule,
    {
      schema: {
        tags,
        summary: `The next ${UPCOMING_SCHEDULE_SIZE} schedule entries not yet ended (anyone)`,
        description:
          'For the class page: entries whose end (date and end_time, Asia/Seoul) is still ahead, an entry under ' +
          'way included, soonest first. An empty array when none is planned.',
        params: ClassIdParamsSchema,
        response: { 200: envelopeSchema(z.array(ScheduleSchema)), ...errorResponses(400, 404) },
      },
    },
    async (request) =>
      ok(
        await listUpcomingSchedules(app.db, request.params.classId),
        '다가오는 강의 일정이에요.',
        'Upcoming schedule.',
      ),
  );

  app.get(
    ROUTES.schedule,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The schedule, by date and time (teacher or student)',
        params: ClassIdParamsSchema,
        response: { 200: envelopeSchema(z.array(ScheduleSchema)), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await requireMember(app.db, request.params.classId, user.id);
      return ok(await listSchedules(app.db, request.params.classId), '강의 일정이에요.', 'Schedule.');
    },
  );

  app.post(
    ROUTES.schedule,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Add a schedule entry (teacher)',
        params: ClassIdParamsSchema,
        body: ScheduleCreateSchema,
        response: { 200: envelopeSchema(ScheduleSchema), ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await requireTeacher(app.db, request.params.classId, user.id);
      const schedule = await addSchedule(app.db, request.params.classId, request.body);
      return ok(schedule, '일정을 추가했어요.', 'Schedule added.');
    },
  );

  app.delete(
    ROUTES.schedule,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'Remove a schedule entry of this class (teacher)',
        params: ClassIdParamsSchema,
        body: ScheduleDeleteSchema,
        response: { 200: DoneSchema, ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      await requireTeacher(app.db, request.params.classId, user.id);
      await removeSchedule(app.db, request.params.classId, request.body.schedule_id);
      return done('일정을 삭제했어요.', 'Schedule removed.');
    },
  );
}
