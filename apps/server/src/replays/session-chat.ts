import { and, asc, eq, gte, isNull, lte } from 'drizzle-orm';
import type { SessionChatMessage } from '@sea/contract/sessions';
import type { Executor } from '../db/database.ts';
import { chatMessages, users } from '../db/schema.ts';
import { toReplayMs, type ReplayTimeline } from './replay-timeline.ts';

/** Most messages one session's chat answers. */
export const MAX_SESSION_CHAT = 10_000;

/**
 * The chat of a session: the class's messages written between its start and its end (or now, while live), in
 * time order, each with its offset from the start on the replay's clock (the teacher's pauses cut out, when
 * the replay has a timeline).
 */
export async function sessionChat(
  db: Executor,
  session: { classId: number; startedAt: Date; endedAt: Date | null },
  teacherId: string,
  imageUrl: (key: string) => string,
  timeline: ReplayTimeline | null,
  now = new Date(),
): Promise<SessionChatMessage[]> {
  const rows = await db
    .select({
      id: chatMessages.id,
      userId: chatMessages.userId,
      content: chatMessages.content,
      createdAt: chatMessages.createdAt,
      nickname: users.nickname,
      profileImage: users.profileImage,
    })
    .from(chatMessages)
    .leftJoin(users, and(eq(users.id, chatMessages.userId), isNull(users.deletedAt)))
    .where(
      and(
        eq(chatMessages.classId, session.classId),
        gte(chatMessages.createdAt, session.startedAt),
        lte(chatMessages.createdAt, session.endedAt ?? now),
      ),
    )
    .orderBy(asc(chatMessages.createdAt), asc(chatMessages.id))
    .limit(MAX_SESSION_CHAT);
  const start = session.startedAt.getTime();
  return rows.map((row) => {
    const sessionMs = Math.max(0, row.createdAt.getTime() - start);
    return {
      id: Number(row.id),
      user_id: row.userId,
      nickname: row.nickname,
      profile_image_path: row.profileImage === null ? null : imageUrl(row.profileImage),
      role: row.userId === teacherId ? 'teacher' : 'student',
      content: row.content,
      created_at: row.createdAt.toISOString(),
      offset_ms: Math.round(timeline === null ? sessionMs : toReplayMs(timeline, sessionMs)),
    };
  });
}
