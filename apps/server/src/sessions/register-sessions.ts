import type { FastifyInstance } from 'fastify';
import { closeAttendance } from '../attendance/attendance-store.ts';
import {
  dropRecordingOfDeletedClass,
  recordingFilesOf,
  removeRecordingsOfDeletedClasses,
} from './recording-removal.ts';
import { ReplayUrls } from './replay-urls.ts';
import { SessionEnded } from './session-ended.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Announces every live session that ended, once (see SessionEnded); the replay job subscribes here. */
    sessionEnded: SessionEnded;
    /** Signs and checks the short-lived URLs of replay files. */
    replayUrls: ReplayUrls;
  }
}

/**
 * Live sessions as data: the seam other modules use when a session ends, and the signer of replay URLs. When
 * a session ends its open attendance rows close, and a session of a class deleted meanwhile keeps no recording;
 * at start, recordings a deletion left behind (the server stopped before removing them) go.
 */
export function registerSessions(app: FastifyInstance): void {
  app.decorate('sessionEnded', new SessionEnded(app.log));
  app.decorate('replayUrls', new ReplayUrls(app.config.jwtSecret));
  app.sessionEnded.subscribe((session) => closeAttendance(app.db, session.id, session.endedAt));
  app.sessionEnded.subscribe((session) => dropRecordingOfDeletedClass(recordingFilesOf(app), session));
  app.addHook('onReady', async () => {
    const cleared = await removeRecordingsOfDeletedClasses(recordingFilesOf(app));
    if (cleared > 0) app.log.info({ sessions: cleared }, 'removed the recordings of deleted classes');
  });
}
