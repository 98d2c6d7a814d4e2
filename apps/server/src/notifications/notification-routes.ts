import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import {
  NOTIFICATION_EVENT,
  NOTIFICATION_HEARTBEAT_MS,
  NotificationListQuerySchema,
  NotificationListSchema,
  NotificationReadSchema,
} from '@sea/contract/notifications';
import { ROUTES } from '@sea/contract/paths';
import { z } from 'zod';
import { envelopeSchema, errorResponses, ok } from '../envelope.ts';
import { requireUser } from '../plugins/auth.ts';
import type { NotificationHub } from './notification-hub.ts';
import { listNotifications, markRead } from './notification-store.ts';

const tags = ['notifications'];
const security = [{ bearer: [] }];

/** The caller's notices: the list, marking them read, and the live stream of new ones (SSE). */
export function notificationRoutes(hub: NotificationHub) {
  return async (fastify: FastifyInstance): Promise<void> => {
    const app = fastify.withTypeProvider<ZodTypeProvider>();
    // Open streams end as the server starts to close (preClose: the HTTP server's close waits for every
    // request, so onClose would come only after every browser has left).
    const open = new Set<() => void>();
    app.addHook('preClose', async () => {
      for (const end of open) end();
    });

    app.get(
      ROUTES.notifications,
      {
        onRequest: app.authenticate,
        schema: {
          tags,
          security,
          summary: 'A page of 20 of the caller’s notices, newest first, with the unread count',
          querystring: NotificationListQuerySchema,
          response: { 200: envelopeSchema(NotificationListSchema), ...errorResponses(400, 401) },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        const list = await listNotifications(app.db, user.id, request.query.page);
        return ok(list, '알림 목록이에요.', 'Notifications.');
      },
    );

    app.post(
      ROUTES.notificationsRead,
      {
        onRequest: app.authenticate,
        schema: {
          tags,
          security,
          summary: 'Mark notices read: the given ids, or all without ids; answers the unread count',
          body: NotificationReadSchema,
          response: {
            200: envelopeSchema(z.object({ unread_count: z.number().int() })),
            ...errorResponses(400, 401),
          },
        },
      },
      async (request) => {
        const user = await requireUser(request);
        const unread = await markRead(app.db, user.id, request.body.ids);
        return ok({ unread_count: unread }, '알림을 읽음으로 표시했어요.', 'Marked read.');
      },
    );

    app.get(
      ROUTES.notificationStream,
      {
        onRequest: app.authenticate,
        schema: {
          tags,
          security,
          summary: 'New notices as Server-Sent Events (`event: notification`, data: a notice in JSON)',
          description: `A comment line every ${NOTIFICATION_HEARTBEAT_MS / 1000} s keeps the stream open.`,
          response: {
            200: z.string().describe('text/event-stream: `event: notification` lines with a notice in JSON'),
            ...errorResponses(401),
          },
        },
      },
      async (request, reply) => {
        const user = await requireUser(request);
        reply.hijack();
        const raw = reply.raw;
        // The headers the hooks set so far (security headers, CORS) stay, as on the SockJS streams.
        for (const [name, value] of Object.entries(reply.getHeaders())) {
          if (value !== undefined) raw.setHeader(name, value);
        }
        raw.writeHead(200, {
          'content-type': 'text/event-stream; charset=utf-8',
          'cache-control': 'no-cache, no-transform',
          'x-accel-buffering': 'no',
        });
        raw.write(': connected\n\n');
        const stop = hub.listen(user.id, {
          notice: (item) => raw.write(`event: ${NOTIFICATION_EVENT}\ndata: ${JSON.stringify(item)}\n\n`),
          // The user withdrew: nothing more is theirs to hear.
          end: () => end(),
        });
        const heartbeat = setInterval(() => raw.write(': ping\n\n'), NOTIFICATION_HEARTBEAT_MS);
        // The stream lives as long as the token it was opened with; the page reconnects with a fresh one.
        const expiry = setTimeout(() => end(), Math.max(0, (request.auth?.expiresAt ?? 0) - Date.now()));
        const end = () => {
          clearInterval(heartbeat);
          clearTimeout(expiry);
          stop();
          open.delete(end);
          if (!raw.writableEnded) raw.end();
        };
        open.add(end);
        request.raw.on('close', end);
      },
    );
  };
}
