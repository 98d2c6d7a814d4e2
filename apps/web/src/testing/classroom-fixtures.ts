import type { Poll, Question } from '@sea/contract/classroom';

const CLASS_ID = 7;

/** A poll of class 7's first session, open and unanswered, changed by `fields`. */
export function poll(fields: Partial<Poll> & { id: number; question: string; options: string[] }): Poll {
  return {
    roomId: CLASS_ID,
    sessionId: 1,
    multiple: false,
    quiz: false,
    correct: null,
    counts: null,
    voters: 0,
    closed: false,
    revealed: false,
    myVote: null,
    createdDate: new Date(0).toISOString(),
    ...fields,
  };
}

/** A question of class 7's first session by a student, without votes, changed by `fields`. */
export function question(fields: Partial<Question> & { id: number; content: string }): Question {
  return {
    roomId: CLASS_ID,
    sessionId: 1,
    anonymous: false,
    author: '수강생',
    authorId: 'student-1',
    mine: false,
    votes: 0,
    voted: false,
    answered: false,
    pinned: false,
    createdDate: new Date(0).toISOString(),
    ...fields,
  };
}
