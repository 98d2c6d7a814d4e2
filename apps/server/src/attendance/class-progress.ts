import { and, asc, eq, inArray, isNotNull, isNull } from 'drizzle-orm';
import { PROGRESS_COMPLETED_PERCENT, type ClassProgress, type StudentProgress } from '@sea/contract/progress';
import { membersOf } from '../classes/class-role.ts';
import type { Executor } from '../db/database.ts';
import { liveSessions, replayWatches, users } from '../db/schema.ts';
import { countSeconds, lengthSeconds, percentWatched } from './watched-spans.ts';

/** The replays students can watch (ready, not hidden, with a length), oldest first. */
async function watchableReplays(db: Executor, classId: number) {
  return db
    .select({
      id: liveSessions.id,
      title: liveSessions.title,
      startedAt: liveSessions.startedAt,
      lengthMs: liveSessions.replayDurationMs,
    })
    .from(liveSessions)
    .where(
      and(
        eq(liveSessions.classId, classId),
        eq(liveSessions.recordingState, 'ready'),
        eq(liveSessions.hidden, false),
        isNotNull(liveSessions.replayDurationMs),
      ),
    )
    .orderBy(asc(liveSessions.startedAt), asc(liveSessions.id));
}

/**
 * The progress (진도율) of each of `userIds` in a class: for every replay students can watch, the share of its
 * seconds they played (each second once), where they stopped and whether they completed it; and the class's
 * total, the share of all those replays' seconds.
 */
export async function classProgress(
  db: Executor,
  classId: number,
  userIds: readonly string[],
): Promise<Map<string, ClassProgress>> {
  const replays = await watchableReplays(db, classId);
  const watches =
    replays.length === 0 || userIds.length === 0
      ? []
      : await db
          .select({
            sessionId: replayWatches.sessionId,
            userId: replayWatches.userId,
            watched: replayWatches.watched,
            positionS: replayWatches.positionS,
            lastBeatAt: replayWatches.lastBeatAt,
          })
          .from(replayWatches)
          .where(
            and(
              inArray(
                replayWatches.sessionId,
                replays.map((replay) => replay.id),
              ),
              inArray(replayWatches.userId, [...userIds]),
            ),
          );
  const byKey = new Map(watches.map((watch) => [`${watch.sessionId}/${watch.userId}`, watch]));
  const totalSeconds = replays.reduce((sum, replay) => sum + lengthSeconds(replay.lengthMs ?? 0), 0);
  const result = new Map<string, ClassProgress>();
  for (const userId of userIds) {
    let playedSeconds = 0;
    const sessions = replays.map((replay) => {
      const lengthMs = replay.lengthMs ?? 0;
      const watch = byKey.get(`${replay.id}/${userId}`);
      const seconds = Math.min(countSeconds(watch?.watched ?? []), lengthSeconds(lengthMs));
      playedSeconds += seconds;
      const percent = percentWatched(seconds, lengthMs) ?? 0;
      return {
        session_id: replay.id,
        title: replay.title,
        started_at: replay.startedAt.toISOString(),
        length_ms: lengthMs,
        percent,
        last_position_ms: Math.min(Math.round((watch?.positionS ?? 0) * 1000), lengthMs),
        completed: percent >= PROGRESS_COMPLETED_PERCENT,
        last_watched_at: watch?.lastBeatAt.toISOString() ?? null,
      };
    });
    const classPercent = totalSeconds === 0 ? 0 : Math.floor((playedSeconds * 100) / totalSeconds);
    result.set(userId, { class_percent: classPercent, sessions });
  }
  return result;
}

const collator = new Intl.Collator('ko');

/** Every enrolled student's progress in the class (the teacher's view), in Korean nickname order. */
export async function studentsProgress(db: Executor, classId: number): Promise<StudentProgress[]> {
  const members = await membersOf(db, classId);
  const studentIds = members?.studentIds ?? [];
  if (studentIds.length === 0) return [];
  const people = await db
    .select({ id: users.id, nickname: users.nickname })
    .from(users)
    .where(and(inArray(users.id, studentIds), isNull(users.deletedAt)));
  const progress = await classProgress(
    db,
    classId,
    people.map((person) => person.id),
  );
  return people
    .sort((a, b) => collator.compare(a.nickname, b.nickname) || a.id.localeCompare(b.id))
    .map((person) => ({
      user_id: person.id,
      nickname: person.nickname,
      ...(progress.get(person.id) ?? { class_percent: 0, sessions: [] }),
    }));
}
