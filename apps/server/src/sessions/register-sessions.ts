import type { FastifyInstance } from 'fastify';
import {
  dropRecordingOfDeletedClass,
  recordingFilesOf,
  removeClassRecordings,
  removeRecordingsOfDeletedClasses,
} from './recording-removal.ts';
import { ReplayUrls } from './replay-urls.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** Signs and checks the short-lived URLs of replay files. */
    replayUrls: ReplayUrls;
  }
}

/**
 * The recordings of live sessions, and the signer of replay URLs. A deleted class's recordings go (those of
 * a withdrawn teacher's classes too), and a session of a class deleted meanwhile keeps none when it ends; at
 * start, recordings a deletion left behind (the server stopped before removing them) go.
 */
export function registerSessions(app: FastifyInstance): void {
  app.decorate('replayUrls', new ReplayUrls(app.config.jwtSecret));
  app.events.on('sessionEnded', (session) => dropRecordingOfDeletedClass(recordingFilesOf(app), session));
  app.events.on('classDeleted', ({ classId }) => removeClassRecordings(recordingFilesOf(app), [classId]));
  app.events.on('userWithdrawn', ({ classIds }) => removeClassRecordings(recordingFilesOf(app), classIds));
  app.addHook('onReady', async () => {
    const cleared = await removeRecordingsOfDeletedClasses(recordingFilesOf(app));
    if (cleared > 0) app.log.info({ sessions: cleared }, 'removed the recordings of deleted classes');
  });
}
