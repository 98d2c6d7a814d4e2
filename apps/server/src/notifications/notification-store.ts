import { and, count, desc, eq, gt, inArray, isNull, sql } from 'drizzle-orm';
import {
  NOTIFICATION_PAGE_SIZE,
  type NotificationItem,
  type NotificationKind,
} from '@sea/contract/notifications';
import type { Database } from '../db/database.ts';
import { classes, notifications } from '../db/schema.ts';

/** A notice to store: for whom, what about, and the other person's nickname where one is involved. */
export type NewNotification = { userId: string; kind: NotificationKind; nickname?: string };

type Row = typeof notifications.$inferSelect;

function toItem(row: Row): NotificationItem {
  const data = row.data as { nickname?: unknown };
  return {
    id: row.id,
    kind: row.kind as NotificationKind,
    class_id: row.classId,
    class_name: row.className,
    nickname: typeof data.nickname === 'string' ? data.nickname : null,
    read: row.readAt !== null,
    created_at: row.createdAt.toISOString(),
  };
}

/** A notice like an unread one of the last ten minutes (same reader, kind, class and person) is not stored. */
export const COALESCE_MS = 10 * 60_000;

/** The entries not already told by an unread notice of the last {@link COALESCE_MS}. */
async function untold(db: Database, classId: number, entries: readonly NewNotification[]) {
  const recent = await db
    .select({ userId: notifications.userId, kind: notifications.kind, data: notifications.data })
    .from(notifications)
    .where(
      and(
        eq(notifications.classId, classId),
        inArray(notifications.userId, [...new Set(entries.map((entry) => entry.userId))]),
        isNull(notifications.readAt),
        gt(notifications.createdAt, new Date(Date.now() - COALESCE_MS)),
      ),
    );
  const key = (userId: string, kind: string, nickname: unknown) =>
    JSON.stringify([userId, kind, typeof nickname === 'string' ? nickname : null]);
  const told = new Set(
    recent.map((row) => key(row.userId, row.kind, (row.data as { nickname?: unknown }).nickname)),
  );
  return entries.filter((entry) => !told.has(key(entry.userId, entry.kind, entry.nickname)));
}

/**
 * Stores notices about one class (its current name kept with them); answers them with their owners. A notice
 * the reader has just been told and not read yet is not told again: sixty enrol and cancel flips by one
 * student make one notice in the teacher's bell.
 */
export async function storeNotifications(
  db: Database,
  classId: number,
  all: readonly NewNotification[],
): Promise<{ userId: string; item: NotificationItem }[]> {
  if (all.length === 0) return [];
  const [target] = await db.select({ name: classes.name }).from(classes).where(eq(classes.id, classId));
  if (target === undefined) return [];
  const entries = await untold(db, classId, all);
  if (entries.length === 0) return [];
  const rows = await db
    .insert(notifications)
    .values(
      entries.map((entry) => ({
        userId: entry.userId,
        kind: entry.kind,
        classId,
        className: target.name,
        data: entry.nickname === undefined ? {} : { nickname: entry.nickname },
      })),
    )
    .returning();
  return rows.map((row) => ({ userId: row.userId, item: toItem(row) }));
}

/** A page of the user's notices, newest first, and the number unread. */
export async function listNotifications(db: Database, userId: string, page: number) {
  const rows = await db
    .select()
    .from(notifications)
    .where(eq(notifications.userId, userId))
    .orderBy(desc(notifications.id))
    .limit(NOTIFICATION_PAGE_SIZE)
    .offset(page * NOTIFICATION_PAGE_SIZE);
  return { items: rows.map(toItem), unread_count: await unreadCount(db, userId) };
}

export async function unreadCount(db: Database, userId: string): Promise<number> {
  const [row] = await db
    .select({ n: count() })
    .from(notifications)
    .where(and(eq(notifications.userId, userId), isNull(notifications.readAt)));
  return row?.n ?? 0;
}

/** Marks these of the user's notices read (all when `ids` is absent); others' ids are ignored. */
export async function markRead(db: Database, userId: string, ids: readonly number[] | undefined) {
  await db
    .update(notifications)
    .set({ readAt: sql`now()` })
    .where(
      and(
        eq(notifications.userId, userId),
        isNull(notifications.readAt),
        ids === undefined ? undefined : inArray(notifications.id, [...ids]),
      ),
    );
  return unreadCount(db, userId);
}
