import { and, asc, desc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { RoomRole } from '@sea/contract/chat';
import type { Question } from '@sea/contract/classroom';
import type { Database } from '../db/database.ts';
import { chatMutes, liveSessions, questions, questionVotes, users } from '../db/schema.ts';

/** A stored question with its asker's nickname (null once they withdrew). */
export type QuestionRow = {
  id: number;
  sessionId: number;
  classId: number;
  userId: string | null;
  content: string;
  anonymous: boolean;
  votes: number;
  answered: boolean;
  pinned: boolean;
  createdAt: Date;
  nickname: string | null;
};

const columns = {
  id: questions.id,
  sessionId: questions.sessionId,
  classId: questions.classId,
  userId: questions.userId,
  content: questions.content,
  anonymous: questions.anonymous,
  // Counted, not kept in the question's row: an upvote is then one insert that takes no lock on the question,
  // so hundreds at once do not queue on one row (and on the pool's connections, ahead of everything else).
  votes:
    sql<number>`(select count(*) from ${questionVotes} where ${questionVotes.questionId} = ${questions.id})`.mapWith(
      Number,
    ),
  answered: questions.answered,
  pinned: questions.pinned,
  createdAt: questions.createdAt,
  nickname: users.nickname,
};

/** A question's own columns, as an insert returns them (no votes yet; the nickname is read apart). */
const { votes: _votes, nickname: _nickname, ...stored } = columns;

/**
 * Stores a question in the class's open live session and answers it as stored, in one statement: the session
 * looked up, a student's mute checked (`mutedAt`: the time it is judged at; none for the teacher), the row
 * inserted and read back with the asker's nickname. Null when nothing was stored: the class is not live, or
 * the asker is muted (the caller tells which). One round trip, because during a storm of votes every query
 * waits its turn for a pooled connection, and a question that must reach the teacher at once waited four times.
 */
export async function askQuestion(
  db: Database,
  input: { classId: number; userId: string; content: string; anonymous: boolean; mutedAt: Date | null },
): Promise<QuestionRow | null> {
  const { classId, userId, content, anonymous, mutedAt } = input;
  const unmuted =
    mutedAt === null
      ? sql`true`
      : sql`not exists (select 1 from ${chatMutes} where ${chatMutes.classId} = ${classId}
          and ${chatMutes.userId} = ${userId} and ${chatMutes.until} > ${mutedAt.toISOString()}::timestamptz)`;
  const [row] = await db
    .insert(questions)
    .select(
      db
        // Every column in the table's order (an insert's select must name them all): the defaults spelled out.
        .select({
          id: sql<number>`nextval(pg_get_serial_sequence('questions', 'id'))`.as('id'),
          sessionId: sql<number>`${liveSessions.id}`.as('session_id'),
          classId: sql<number>`${classId}::integer`.as('class_id'),
          userId: sql<string>`${userId}`.as('user_id'),
          content: sql<string>`${content}`.as('content'),
          anonymous: sql<boolean>`${anonymous}::boolean`.as('anonymous'),
          answered: sql<boolean>`false`.as('answered'),
          pinned: sql<boolean>`false`.as('pinned'),
          createdAt: sql<Date>`now()`.as('created_at'),
        })
        .from(liveSessions)
        .where(and(eq(liveSessions.classId, classId), isNull(liveSessions.endedAt), unmuted))
        .orderBy(desc(liveSessions.startedAt))
        .limit(1),
    )
    .returning({
      ...stored,
      // Spelled out: drizzle writes a returning's columns unqualified, which would make them the users' here.
      nickname: sql<string | null>`(select "users"."nickname" from "users"
        where "users"."id" = "questions"."user_id" and "users"."deleted_at" is null)`,
    });
  return row ? { ...row, votes: 0 } : null;
}

/** A question of the class, or null. */
export async function findQuestion(
  db: Database,
  classId: number,
  questionId: number,
): Promise<QuestionRow | null> {
  const [row] = await db
    .select(columns)
    .from(questions)
    .leftJoin(users, and(eq(users.id, questions.userId), isNull(users.deletedAt)))
    .where(and(eq(questions.classId, classId), eq(questions.id, questionId)));
  return row ?? null;
}

/** One member's upvote of a question of the class. */
export type QuestionVote = { classId: number; questionId: number; userId: string };

/**
 * Upvotes, as many as come, in one statement (the classroom takes votes to the database in batches): the vote's
 * primary key refuses a second one, even from two instances at once, and the question must be the class's.
 * Nothing else is written: the count is the votes counted. One outcome per vote, in order; a vote repeated in
 * the same batch counts once.
 */
export async function voteQuestions(
  db: Database,
  votes: readonly QuestionVote[],
): Promise<('voted' | 'already-voted' | 'not-found')[]> {
  if (votes.length === 0) return [];
  const rows = votes.map(
    ({ classId, questionId, userId }) => sql`(${questionId}::integer, ${classId}::integer, ${userId}::text)`,
  );
  const voting = sql`(values ${sql.join(rows, sql`, `)}) as v(question_id, class_id, user_id)`;
  const inserted = await db
    .insert(questionVotes)
    .select(
      db
        .selectDistinct({ questionId: questions.id, userId: sql<string>`v.user_id`.as('user_id') })
        .from(questions)
        .innerJoin(voting, sql`v.question_id = ${questions.id} and v.class_id = ${questions.classId}`),
    )
    .onConflictDoNothing()
    .returning({ questionId: questionVotes.questionId, userId: questionVotes.userId });
  const key = (vote: QuestionVote) => `${vote.questionId}:${vote.userId}`;
  const counted = new Set(inserted.map((row) => `${row.questionId}:${row.userId}`));
  const seen = new Set<string>();
  const repeated = new Set<string>();
  for (const vote of votes) (seen.has(key(vote)) ? repeated : seen).add(key(vote));
  // The questions' classes are read only when needed (rare): for a vote not counted (already voted, or no such
  // question in the class), and for a counted one sent twice, maybe once under another class.
  const unsure = votes.filter((vote) => !counted.has(key(vote)) || repeated.has(key(vote)));
  const found =
    unsure.length === 0
      ? []
      : await db
          .select({ id: questions.id, classId: questions.classId })
          .from(questions)
          .where(inArray(questions.id, [...new Set(unsure.map((vote) => vote.questionId))]));
  const classOf = new Map(found.map((row) => [row.id, row.classId]));
  const answered = new Set<string>();
  return votes.map((vote) => {
    const inClass = !classOf.has(vote.questionId) || classOf.get(vote.questionId) === vote.classId;
    if (counted.has(key(vote)) && inClass) {
      // The first of a repeated vote takes the count.
      const first = !answered.has(key(vote));
      answered.add(key(vote));
      return first ? 'voted' : 'already-voted';
    }
    return classOf.get(vote.questionId) === vote.classId ? 'already-voted' : 'not-found';
  });
}

/** Turns the question's `answered` or `pinned` mark over; null for a question the class does not have. */
export async function toggleQuestion(
  db: Database,
  classId: number,
  questionId: number,
  mark: 'answered' | 'pinned',
): Promise<QuestionRow | null> {
  const column = questions[mark];
  const updated = await db
    .update(questions)
    .set({ [mark]: sql`not ${column}` })
    .where(and(eq(questions.classId, classId), eq(questions.id, questionId)))
    .returning({ id: questions.id });
  if (updated.length === 0) return null;
  return findQuestion(db, classId, questionId);
}

/** Deletes a question and its votes; false when the class has no such question. */
export async function deleteQuestion(db: Database, classId: number, questionId: number): Promise<boolean> {
  const deleted = await db
    .delete(questions)
    .where(and(eq(questions.classId, classId), eq(questions.id, questionId)))
    .returning({ id: questions.id });
  return deleted.length > 0;
}

/** The questions of a session as `reader` sees them (its own votes marked), oldest first. */
export async function listQuestions(
  db: Database,
  sessionId: number,
  reader: { userId: string; role: RoomRole },
): Promise<Question[]> {
  const rows = await db
    .select({ ...columns, voted: sql<boolean>`${questionVotes.userId} is not null` })
    .from(questions)
    .leftJoin(users, and(eq(users.id, questions.userId), isNull(users.deletedAt)))
    .leftJoin(
      questionVotes,
      and(eq(questionVotes.questionId, questions.id), eq(questionVotes.userId, reader.userId)),
    )
    .where(eq(questions.sessionId, sessionId))
    .orderBy(asc(questions.id));
  return rows.map((row) => ({ ...questionAs(row, reader), voted: Boolean(row.voted) }));
}

/**
 * A question as one reader sees it: the teacher and the asker always see who asked; other students see no
 * author of an anonymous question.
 */
export function questionAs(row: QuestionRow, reader: { userId: string; role: RoomRole }): Question {
  const mine = row.userId !== null && row.userId === reader.userId;
  const hidden = row.anonymous && !mine && reader.role !== 'teacher';
  return {
    id: row.id,
    roomId: row.classId,
    sessionId: row.sessionId,
    content: row.content,
    anonymous: row.anonymous,
    author: hidden ? null : row.nickname,
    authorId: hidden ? null : row.userId,
    mine,
    votes: row.votes,
    voted: false,
    answered: row.answered,
    pinned: row.pinned,
    createdDate: row.createdAt.toISOString(),
  };
}
