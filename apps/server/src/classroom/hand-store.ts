import { and, asc, eq, isNull } from 'drizzle-orm';
import type { HandsView, RaisedHand } from '@sea/contract/classroom';
import type { Database } from '../db/database.ts';
import { raisedHands, users } from '../db/schema.ts';

/** Raises (once: a second raise keeps the first place) or lowers a student's hand. */
export async function setHand(db: Database, classId: number, userId: string, raised: boolean): Promise<void> {
  if (raised) {
    await db.insert(raisedHands).values({ classId, userId }).onConflictDoNothing();
  } else {
    await db.delete(raisedHands).where(and(eq(raisedHands.classId, classId), eq(raisedHands.userId, userId)));
  }
}

/** Lowers one student's hand, or every hand of the room. */
export async function lowerHands(db: Database, classId: number, userId?: string): Promise<void> {
  const room = eq(raisedHands.classId, classId);
  await db.delete(raisedHands).where(userId === undefined ? room : and(room, eq(raisedHands.userId, userId)));
}

/** The raised hands of a room, oldest first. */
export async function handQueue(db: Database, classId: number): Promise<RaisedHand[]> {
  const rows = await db
    .select({ userId: raisedHands.userId, nickname: users.nickname, raisedAt: raisedHands.raisedAt })
    .from(raisedHands)
    .leftJoin(users, and(eq(users.id, raisedHands.userId), isNull(users.deletedAt)))
    .where(eq(raisedHands.classId, classId))
    .orderBy(asc(raisedHands.raisedAt), asc(raisedHands.userId));
  return rows.map((row) => ({
    userId: row.userId,
    nickname: row.nickname,
    raisedDate: row.raisedAt.toISOString(),
  }));
}

/** The hands as one reader sees them: the teacher the queue, a student the count and their own hand. */
export function handsAs(
  classId: number,
  queue: RaisedHand[],
  reader: { userId: string; teacher: boolean },
): HandsView {
  return {
    roomId: classId,
    count: queue.length,
    raised: queue.some((hand) => hand.userId === reader.userId),
    queue: reader.teacher ? queue : [],
  };
}
