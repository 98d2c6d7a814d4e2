import type { FastifyInstance } from 'fastify';
import { NotificationHub } from './notification-hub.ts';
import { notificationRoutes } from './notification-routes.ts';
import { Notifier } from './notifier.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where modules report what users should hear of (went live, a reply, a new student...). */
    notifier: Notifier;
  }
}

/**
 * Notices (알림): kept in the database, delivered live over Server-Sent Events to the user's open pages (on
 * every server process, through Redis when configured).
 */
export async function registerNotifications(app: FastifyInstance, redisUrl: string | null): Promise<void> {
  const hub = new NotificationHub(
    redisUrl === null
      ? null
      : {
          url: redisUrl,
          channel: 'sea:notifications',
          log: (message, error) => app.log.warn({ err: error }, message),
        },
  );
  const notifier = new Notifier(app.db, hub, app.log);
  app.decorate('notifier', notifier);
  app.events.on('replayReady', ({ classId }) => notifier.replayReady(classId));
  app.addHook('onClose', async () => hub.close());
  // A withdrawn user's open pages stop hearing notices at once, on every server process.
  app.events.on('userWithdrawn', ({ userId }) => hub.end(userId));
  await app.register(notificationRoutes(hub));
}
