import { and, eq, inArray, isNotNull, ne } from 'drizzle-orm';
import type { FastifyBaseLogger, FastifyInstance } from 'fastify';
import type { Database } from '../db/database.ts';
import { classes, liveSessions } from '../db/schema.ts';
import { sessionRooms } from '../sessions/session-parts.ts';
import type { FileStore } from '@sea/service-kit/storage/file-store';
import { dropRecording } from '../sessions/session-rows.ts';
import { rawRecordingsOf, type RawRecordings } from './raw-recordings.ts';
import { removeReplayFiles } from './replay-files.ts';

export type RecordingFiles = {
  db: Database;
  /** The replays' store; `replaysDir` holds only unfinished attempts' work folders. */
  replays: FileStore;
  replaysDir: string;
  /** Where the raw recordings are (RECORDINGS_DIR, or the object store's). */
  raw: RawRecordings;
  log: FastifyBaseLogger;
};

/** The app's database, folders and log, as the functions here take them. */
export function recordingFilesOf(app: FastifyInstance): RecordingFiles {
  const { db, config, log } = app;
  const { replaysDir } = config;
  return {
    db,
    replays: app.files.replays,
    replaysDir,
    raw: rawRecordingsOf(config, app.files.recordings),
    log,
  };
}

/**
 * Removes the recordings of these sessions: the replay's files and the raw recording's folder go, and each
 * session stays (its attendance refers to it) with state `none`. A failure to remove files is logged, never
 * thrown (the rows no longer point at them).
 */
export async function removeSessionRecordings(deps: RecordingFiles, sessionIds: number[]): Promise<void> {
  const rows = await dropRecording(deps.db, sessionIds);
  for (const row of rows) {
    try {
      await removeReplayFiles(deps.replays, deps.replaysDir, row.id);
      // Every room's raw recording: a session that went on in another room has one per room.
      await deps.raw.remove((await sessionRooms(deps.db, row)).map((room) => room.mediaKey));
    } catch (error) {
      deps.log.error({ err: error, sessionId: row.id }, 'removing a recording’s files failed');
    }
  }
}

/**
 * Removes the recordings of every ended session of these classes (deleted, or their teacher withdrew). A
 * session still live then loses its recording when it ends ({@link dropRecordingOfDeletedClass}).
 */
export async function removeClassRecordings(deps: RecordingFiles, classIds: number[]): Promise<void> {
  if (classIds.length === 0) return;
  const rows = await deps.db
    .select({ id: liveSessions.id })
    .from(liveSessions)
    .where(and(inArray(liveSessions.classId, classIds), isNotNull(liveSessions.endedAt)));
  await removeSessionRecordings(
    deps,
    rows.map((row) => row.id),
  );
}

/** A session that ended after its class was deleted keeps no recording (a `sessionEnded` listener). */
export async function dropRecordingOfDeletedClass(
  deps: RecordingFiles,
  session: { id: number; classId: number },
): Promise<void> {
  const [deleted] = await deps.db
    .select({ id: classes.id })
    .from(classes)
    .where(and(eq(classes.id, session.classId), isNotNull(classes.deletedAt)));
  if (deleted !== undefined) await removeSessionRecordings(deps, [session.id]);
}

/**
 * Removes the recordings still kept for ended sessions of deleted classes: files a deletion could not remove
 * because the server stopped in between (run when the server is ready). Answers how many sessions it cleared.
 */
export async function removeRecordingsOfDeletedClasses(deps: RecordingFiles): Promise<number> {
  const rows = await deps.db
    .select({ id: liveSessions.id })
    .from(liveSessions)
    .innerJoin(classes, eq(classes.id, liveSessions.classId))
    .where(
      and(
        isNotNull(classes.deletedAt),
        isNotNull(liveSessions.endedAt),
        ne(liveSessions.recordingState, 'none'),
      ),
    );
  await removeSessionRecordings(
    deps,
    rows.map((row) => row.id),
  );
  return rows.length;
}

/**
 * Recordings go with what they belong to: a deleted class's (and those of the classes a withdrawn teacher
 * taught), and a session of a class deleted meanwhile keeps none when it ends; at start, recordings a
 * deletion left behind (the server stopped before removing them) go.
 */
export function registerRecordingRemoval(app: FastifyInstance): void {
  const files = recordingFilesOf(app);
  app.events.on('sessionEnded', (session) => dropRecordingOfDeletedClass(files, session));
  app.events.on('classDeleted', ({ classId }) => removeClassRecordings(files, [classId]));
  app.events.on('userWithdrawn', ({ classIds }) => removeClassRecordings(files, classIds));
  app.addHook('onReady', async () => {
    const cleared = await removeRecordingsOfDeletedClasses(files);
    if (cleared > 0) app.log.info({ sessions: cleared }, 'removed the recordings of deleted classes');
  });
}
