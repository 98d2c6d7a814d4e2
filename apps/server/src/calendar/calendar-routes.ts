import type { FastifyInstance, FastifyReply } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import {
  CalendarTokenParamsSchema,
  CalendarUrlSchema,
  ICALENDAR_CONTENT_TYPE,
  classScheduleIcsName,
} from '@sea/contract/calendar';
import { ClassIdParamsSchema } from '@sea/contract/classes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { findClassItem } from '../classes/class-item.ts';
import { requireMember } from '../classes/class-role.ts';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { HttpError, notFound } from '../errors.ts';
import { requireUser } from '../plugins/auth.ts';
import { entriesOfClass, entriesOfUser } from './calendar-entries.ts';
import { CalendarFeeds } from './calendar-feeds.ts';
import { scheduleIcs } from './calendar-ics.ts';
import { feedOwner, feedSelector, resetSelector } from './calendar-store.ts';

const tags = ['calendar'];
const security = [{ bearer: [] }];
const icsResponse = z.string().describe('an iCalendar file (RFC 5545)');

/** The calendar: each user's private feed of their classes' schedules, and one class's schedule as a file. */
export async function calendarRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  const feeds = new CalendarFeeds(app.config.jwtSecret);
  const feedUrl = (selector: string) => {
    const url = app.config.publicUrl + toPath(ROUTES.calendarFeed, { token: feeds.tokenOf(selector) });
    return { url, webcal_url: url.replace(/^https?:/, 'webcal:') };
  };
  const sendIcs = (reply: FastifyReply, ics: string) =>
    reply
      .header('content-type', ICALENDAR_CONTENT_TYPE)
      .header('cache-control', 'private, no-cache')
      .send(ics);

  app.get(
    ROUTES.calendarUrl,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'The caller’s private calendar feed URL (made on first request)',
        description:
          'Anyone with the URL reads the schedules of the caller’s classes, without logging in: keep it ' +
          'private, and reset it if it was shared.',
        response: { 200: envelopeSchema(CalendarUrlSchema), ...errorResponses(401) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const selector = await feedSelector(app.db, user.id);
      return ok(feedUrl(selector), '캘린더 구독 주소예요.', 'Calendar feed URL.');
    },
  );

  app.post(
    ROUTES.calendarUrlReset,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'A new calendar feed URL in place of the old one, which answers 404 from now on',
        response: { 200: envelopeSchema(CalendarUrlSchema), ...errorResponses(401) },
      },
    },
    async (request) => {
      const user = await requireUser(request);
      const selector = await resetSelector(app.db, user.id);
      return ok(feedUrl(selector), '새 캘린더 구독 주소를 만들었어요.', 'New calendar feed URL.');
    },
  );

  app.get(
    ROUTES.calendarFeed,
    {
      schema: {
        tags,
        summary: 'A user’s calendar feed (iCalendar): the schedules of every class they teach or study',
        description:
          'No bearer: the token in the path is the secret. Made afresh on every request, so a changed ' +
          'schedule or a class left shows at the next refresh. Times in Asia/Seoul (TZID and VTIMEZONE); ' +
          'each schedule entry is one event (no RRULE). 404 for an unknown or reset token.',
        params: CalendarTokenParamsSchema,
        response: { 200: icsResponse, ...errorResponses(404) },
      },
    },
    async (request, reply) => {
      const selector = feeds.selectorOf(request.params.token);
      const userId = selector === null ? null : await feedOwner(app.db, selector);
      if (userId === null) {
        throw new HttpError(404, '캘린더 주소를 찾을 수 없어요.', 'Calendar feed not found.');
      }
      const entries = await entriesOfUser(app.db, userId);
      return sendIcs(reply, scheduleIcs('바다학원 강의 일정', entries, app.config.publicUrl));
    },
  );

  app.get(
    ROUTES.scheduleIcs,
    {
      onRequest: app.authenticate,
      schema: {
        tags,
        security,
        summary: 'One class’s schedule as an iCalendar file (teacher or student), for ‘캘린더에 추가’',
        description: 'An attachment named `class-{classId}.ics`; the same events as the feed.',
        params: ClassIdParamsSchema,
        response: { 200: icsResponse, ...errorResponses(400, 401, 404, 418) },
      },
    },
    async (request, reply) => {
      const user = await requireUser(request);
      const { classId } = request.params;
      await requireMember(app.db, classId, user.id);
      const found = await findClassItem(app.db, classId);
      if (found === null) throw notFound('class');
      const entries = await entriesOfClass(app.db, classId);
      reply.header('content-disposition', `attachment; filename="${classScheduleIcsName(classId)}"`);
      return sendIcs(reply, scheduleIcs(`${found.name} 일정`, entries, app.config.publicUrl));
    },
  );
}
