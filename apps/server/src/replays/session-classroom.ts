import type { SessionClassroom } from '@sea/contract/sessions';
import { listPolls, pollAs } from '../sessions/poll-store.ts';
import { listQuestions } from '../sessions/question-store.ts';
import type { Database } from '../db/database.ts';
import { toReplayMs, type ReplayTimeline } from './replay-timeline.ts';

/**
 * The questions and polls of a session as `reader` sees them in the live room (an anonymous question's author
 * only for the teacher and the asker; a poll's results and a quiz's answer for the teacher, for students once
 * revealed), each in time order with its offset from the session's start on the replay's clock: a question
 * when it was asked, a poll when it opened.
 */
export async function sessionClassroom(
  db: Database,
  session: { id: number; startedAt: Date },
  reader: { userId: string; role: 'teacher' | 'student' },
  timeline: ReplayTimeline | null,
): Promise<SessionClassroom> {
  const start = session.startedAt.getTime();
  const offset = (createdDate: string) => {
    const sessionMs = Math.max(0, Date.parse(createdDate) - start);
    return Math.round(timeline === null ? sessionMs : toReplayMs(timeline, sessionMs));
  };
  const byOffset = (a: { offset_ms: number; id: number }, b: { offset_ms: number; id: number }) =>
    a.offset_ms - b.offset_ms || a.id - b.id;
  const questions = await listQuestions(db, session.id, reader);
  const polls = await listPolls(db, session.id);
  return {
    questions: questions
      .map((question) => ({ ...question, offset_ms: offset(question.createdDate) }))
      .sort(byOffset),
    polls: polls
      .map((row) => {
        const myVote = row.votes.find((vote) => vote.userId === reader.userId)?.options ?? null;
        const poll = pollAs(row, { teacher: reader.role === 'teacher', myVote });
        return { ...poll, offset_ms: offset(poll.createdDate) };
      })
      .sort(byOffset),
  };
}
