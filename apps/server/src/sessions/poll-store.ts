import { and, asc, eq, inArray, isNull, sql } from 'drizzle-orm';
import type { Poll } from '@sea/contract/classroom';
import type { Database } from '../db/database.ts';
import { polls, pollVotes } from '../db/schema.ts';

/** A stored poll as its row holds it. */
export type PollHead = typeof polls.$inferSelect;

/** A stored poll with its answers counted per option. */
export type PollRow = PollHead & { counts: number[]; voters: number };

/** Stores a poll of the session and answers it as stored. */
export async function createPoll(
  db: Database,
  input: {
    sessionId: number;
    classId: number;
    question: string;
    options: string[];
    multiple: boolean;
    correct: number[] | null;
  },
): Promise<PollRow> {
  const [row] = await db.insert(polls).values(input).returning();
  if (!row) throw new Error('insert returned no row');
  return { ...row, counts: input.options.map(() => 0), voters: 0 };
}

/** A poll of the class without its answers, or null. */
async function findPollHead(db: Database, classId: number, pollId: number): Promise<PollHead | null> {
  const [row] = await db
    .select()
    .from(polls)
    .where(and(eq(polls.classId, classId), eq(polls.id, pollId)));
  return row ?? null;
}

/** A poll of the class with its counts, or null. */
export async function findPoll(db: Database, classId: number, pollId: number): Promise<PollRow | null> {
  const row = await findPollHead(db, classId, pollId);
  if (!row) return null;
  const votes = await db
    .select({ options: pollVotes.options })
    .from(pollVotes)
    .where(eq(pollVotes.pollId, pollId));
  return withCounts(row, votes);
}

/** The polls of these ids (of any class: the caller checks), by id; one statement for a batch of answers. */
export async function findPollHeads(
  db: Database,
  pollIds: readonly number[],
): Promise<Map<number, PollHead>> {
  const ids = [...new Set(pollIds)];
  const rows = ids.length === 0 ? [] : await db.select().from(polls).where(inArray(polls.id, ids));
  return new Map(rows.map((row) => [row.id, row]));
}

/** One member's answer to a poll: the indexes of the options picked. */
export type PollAnswer = { pollId: number; userId: string; options: number[] };

/**
 * Answers, as many as come, in one statement (the classroom takes votes to the database in batches): one answer
 * per user, the vote's primary key refusing a second, even through another instance. One outcome per answer,
 * in order; an answer repeated in the same batch counts once, the first.
 */
export async function votePolls(
  db: Database,
  answers: readonly PollAnswer[],
): Promise<('voted' | 'already-voted')[]> {
  if (answers.length === 0) return [];
  const firsts = new Map<string, PollAnswer>();
  for (const answer of answers) {
    const key = `${answer.pollId}:${answer.userId}`;
    if (!firsts.has(key)) firsts.set(key, answer);
  }
  const inserted = await db
    .insert(pollVotes)
    .values([...firsts.values()].map(({ pollId, userId, options }) => ({ pollId, userId, options })))
    .onConflictDoNothing()
    .returning({ pollId: pollVotes.pollId, userId: pollVotes.userId });
  const counted = new Set(inserted.map((row) => `${row.pollId}:${row.userId}`));
  return answers.map(({ pollId, userId }) =>
    counted.delete(`${pollId}:${userId}`) ? 'voted' : 'already-voted',
  );
}

/** Closes a poll (once) or reveals its results; false for a poll the class does not have. */
export async function markPoll(
  db: Database,
  classId: number,
  pollId: number,
  mark: 'close' | 'reveal',
): Promise<boolean> {
  // Revealing a quiz's answer closes it too: an answer after the reveal would only copy it.
  const closedAt = sql`coalesce(${polls.closedAt}, now())`;
  const set = mark === 'close' ? { closedAt } : { closedAt, revealed: true };
  const updated = await db
    .update(polls)
    .set(set)
    .where(and(eq(polls.classId, classId), eq(polls.id, pollId)))
    .returning({ id: polls.id });
  return updated.length > 0;
}

/** Closes the session's polls still open (it has ended); answers the ids of those it closed. */
export async function closeSessionPolls(db: Database, sessionId: number): Promise<number[]> {
  const closed = await db
    .update(polls)
    .set({ closedAt: sql`now()` })
    .where(and(eq(polls.sessionId, sessionId), isNull(polls.closedAt)))
    .returning({ id: polls.id });
  return closed.map((row) => row.id);
}

/** The polls of a session with counts and the reader's own answers, oldest first. */
export async function listPolls(
  db: Database,
  sessionId: number,
): Promise<Array<PollRow & { votes: Array<{ userId: string; options: number[] }> }>> {
  const rows = await db.select().from(polls).where(eq(polls.sessionId, sessionId)).orderBy(asc(polls.id));
  const out = [];
  for (const row of rows) {
    const votes = await db
      .select({ userId: pollVotes.userId, options: pollVotes.options })
      .from(pollVotes)
      .where(eq(pollVotes.pollId, row.id));
    out.push({ ...withCounts(row, votes), votes });
  }
  return out;
}

/** True when the poll takes answers. */
export function isOpen(row: Pick<PollRow, 'closedAt'>): boolean {
  return row.closedAt === null;
}

/** The poll as a reader sees it: results and a quiz's answer for the teacher, for students once revealed. */
export function pollAs(row: PollRow, reader: { teacher: boolean; myVote?: number[] | null }): Poll {
  const shown = reader.teacher || row.revealed;
  return {
    id: row.id,
    roomId: row.classId,
    sessionId: row.sessionId,
    question: row.question,
    options: row.options,
    multiple: row.multiple,
    quiz: row.correct !== null,
    correct: shown ? row.correct : null,
    counts: shown ? row.counts : null,
    voters: row.voters,
    closed: row.closedAt !== null,
    revealed: row.revealed,
    myVote: reader.myVote ?? null,
    createdDate: row.createdAt.toISOString(),
  };
}

function withCounts(row: PollHead, votes: Array<{ options: number[] }>): PollRow {
  const counts = row.options.map(() => 0);
  for (const vote of votes)
    for (const index of vote.options) if (index < counts.length) counts[index] = (counts[index] ?? 0) + 1;
  return { ...row, counts, voters: votes.length };
}
