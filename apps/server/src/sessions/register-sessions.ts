import type { FastifyInstance } from 'fastify';
import { SessionEnded } from './session-ended.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Announces every live session that ended, once (see SessionEnded); the replay job subscribes here. */
    sessionEnded: SessionEnded;
  }
}

/** Live sessions as data: the seam other modules use when a session ends. */
export function registerSessions(app: FastifyInstance): void {
  app.decorate('sessionEnded', new SessionEnded(app.log));
}
