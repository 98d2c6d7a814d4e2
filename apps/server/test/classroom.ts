import { randomUUID } from 'node:crypto';
import { eq } from 'drizzle-orm';
import type { FastifyInstance } from 'fastify';
import { enrolments, liveSessions } from '../src/db/schema.ts';
import { createUser, type TestUser } from './helper.ts';

/** Records an open live session of the class (as a media node's report would) and answers its id. */
export async function openLiveSession(app: FastifyInstance, classId: number): Promise<number> {
  const [row] = await app.db
    .insert(liveSessions)
    .values({ classId, mediaKey: randomUUID(), nodeId: 'test-node', startedAt: new Date() })
    .returning({ id: liveSessions.id });
  if (!row) throw new Error('session not created');
  return row.id;
}

/** Ends a live session and tells the app (`sessionEnded`), as a media node's report would. */
export async function endLiveSession(app: FastifyInstance, sessionId: number): Promise<void> {
  const [row] = await app.db
    .update(liveSessions)
    .set({ endedAt: new Date() })
    .where(eq(liveSessions.id, sessionId))
    .returning();
  if (!row?.endedAt) throw new Error('session not ended');
  await app.events.emit('sessionEnded', { ...row, endedAt: row.endedAt, recordingState: 'none' });
}

/** Another student enrolled in the class. */
export async function enrolStudent(app: FastifyInstance, classId: number): Promise<TestUser> {
  const student = await createUser(app);
  await app.db.insert(enrolments).values({ classId, userId: student.id });
  return student;
}
