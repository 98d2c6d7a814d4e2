import type { FastifyInstance } from 'fastify';
import { attendanceRoutes } from './attendance-routes.ts';
import { closeAttendance } from './attendance-store.ts';
import { progressRoutes } from './progress-routes.ts';

/** The attendance: a session's open stays close when it ends, the record's route and the progress route. */
export async function registerAttendance(app: FastifyInstance): Promise<void> {
  app.events.on('sessionEnded', (session) => closeAttendance(app.db, session.id, session.endedAt));
  await app.register(attendanceRoutes);
  await app.register(progressRoutes);
}
