import { z } from 'zod';
import { idText } from './ids.ts';

// The live room as a classroom: moderation, questions and raised hands, over the chat's STOMP endpoint.
// Every SEND is refused (a MESSAGE on the chat's error queue, the connection stays) with a Korean reason;
// every topic below is `<prefix><classId>`, for the class's members only.

/** Teacher: deletes a chat message, for everyone and from the history. Body {@link ChatDeleteSchema}. */
export const CHAT_DELETE_DESTINATION = '/app/chat/delete';
/** Teacher: mutes a student's chat and questions for some minutes (0 lifts it). Body {@link ChatMuteSchema}. */
export const CHAT_MUTE_DESTINATION = '/app/chat/mute';
/** Teacher: slow mode, one message per N seconds per student (0 turns it off). Body {@link ChatSlowSchema}. */
export const CHAT_SLOW_DESTINATION = '/app/chat/slow';
/**
 * The room's moderation news ({@link ModerationEvent}). Right after a SUBSCRIBE (before its RECEIPT) the
 * subscriber gets the room's current state as events of the same kinds: `slowMode` always (0: off), and for a
 * student their own `muted` (until null: not muted).
 */
export const MODERATION_TOPIC_PREFIX = '/topic/moderation/';

/** Longest mute, in minutes (a day). */
export const MAX_MUTE_MINUTES = 1_440;
/** Slowest slow mode, in seconds (ten minutes). */
export const MAX_SLOW_SECONDS = 600;

export const ChatDeleteSchema = z.object({ roomId: idText(), messageId: z.coerce.number().int().positive() });
export type ChatDelete = z.infer<typeof ChatDeleteSchema>;
export const ChatMuteSchema = z.object({
  roomId: idText(),
  userId: z.string().min(1).max(200),
  minutes: z.coerce.number().int().min(0).max(MAX_MUTE_MINUTES),
});
export type ChatMute = z.infer<typeof ChatMuteSchema>;
export const ChatSlowSchema = z.object({
  roomId: idText(),
  seconds: z.coerce.number().int().min(0).max(MAX_SLOW_SECONDS),
});
export type ChatSlow = z.infer<typeof ChatSlowSchema>;

/**
 * A moderation event: a chat message deleted; a student muted until a time (null: the mute was lifted); the
 * slow mode changed (0: off).
 */
export const ModerationEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('messageDeleted'), roomId: z.number().int(), messageId: z.number().int() }),
  z.object({
    type: z.literal('muted'),
    roomId: z.number().int(),
    userId: z.string(),
    until: z.string().nullable(),
  }),
  z.object({ type: z.literal('slowMode'), roomId: z.number().int(), seconds: z.number().int() }),
]);
export type ModerationEvent = z.infer<typeof ModerationEventSchema>;

/** The topic of a class's moderation events. */
export function moderationTopic(classId: number): string {
  return `${MODERATION_TOPIC_PREFIX}${classId}`;
}

/** Anyone: asks a question in the live session. Body {@link QuestionAskSchema}. */
export const QUESTION_ASK_DESTINATION = '/app/questions';
/** Students: one upvote per question. Body {@link QuestionActionSchema}. */
export const QUESTION_VOTE_DESTINATION = '/app/questions/vote';
/** Teacher: marks a question answered (again: not answered). Body {@link QuestionActionSchema}. */
export const QUESTION_ANSWER_DESTINATION = '/app/questions/answer';
/** Teacher: pins a question on top (again: unpins it). Body {@link QuestionActionSchema}. */
export const QUESTION_PIN_DESTINATION = '/app/questions/pin';
/** Teacher: deletes a question for everyone. Body {@link QuestionActionSchema}. */
export const QUESTION_DELETE_DESTINATION = '/app/questions/delete';
/** A question as it changes ({@link QuestionEvent}). */
export const QUESTION_TOPIC_PREFIX = '/topic/questions/';

/** Longest question, in characters. */
export const MAX_QUESTION_LENGTH = 300;

export const QuestionAskSchema = z.object({
  roomId: idText(),
  content: z.string(),
  anonymous: z.boolean().default(false),
});
export type QuestionAsk = z.infer<typeof QuestionAskSchema>;
export const QuestionActionSchema = z.object({
  roomId: idText(),
  questionId: z.coerce.number().int().positive(),
});
export type QuestionAction = z.infer<typeof QuestionActionSchema>;

/**
 * A question. `author` and `authorId` are null for an anonymous question, except for the teacher and the
 * asker (`mine`). `voted` says whether the reader upvoted it (false on the topic, where everyone gets one
 * copy; the list route fills it in).
 */
export const QuestionSchema = z.object({
  id: z.number().int(),
  roomId: z.number().int(),
  sessionId: z.number().int(),
  content: z.string(),
  anonymous: z.boolean(),
  author: z.string().nullable(),
  authorId: z.string().nullable(),
  mine: z.boolean(),
  votes: z.number().int(),
  voted: z.boolean(),
  answered: z.boolean(),
  pinned: z.boolean(),
  createdDate: z.string(),
});
export type Question = z.infer<typeof QuestionSchema>;

/** A question asked or changed (its whole new state), or deleted. */
export const QuestionEventSchema = z.discriminatedUnion('type', [
  z.object({ type: z.literal('question'), question: QuestionSchema }),
  z.object({ type: z.literal('questionDeleted'), roomId: z.number().int(), questionId: z.number().int() }),
]);
export type QuestionEvent = z.infer<typeof QuestionEventSchema>;

/** Query of `GET /api/classes/{classId}/questions`: another session of the class than the open one. */
export const QuestionListQuerySchema = z.object({ session: idText().optional() });
export type QuestionListQuery = z.infer<typeof QuestionListQuerySchema>;

/** The questions of one session, pinned first, then by votes, then oldest first. */
export const QuestionListSchema = z.object({
  sessionId: z.number().int().nullable(),
  questions: z.array(QuestionSchema),
});
export type QuestionList = z.infer<typeof QuestionListSchema>;

/** The topic of a class's questions. */
export function questionTopic(classId: number): string {
  return `${QUESTION_TOPIC_PREFIX}${classId}`;
}

/** The order questions are shown in: pinned first, then most votes, then the oldest. */
export function compareQuestions(a: Question, b: Question): number {
  if (a.pinned !== b.pinned) return a.pinned ? -1 : 1;
  if (a.votes !== b.votes) return b.votes - a.votes;
  return a.id - b.id;
}

/** Students: raises or lowers their hand. Body {@link HandRaiseSchema}. */
export const HAND_RAISE_DESTINATION = '/app/hands';
/** Teacher: lowers one student's hand, or every hand without `userId`. Body {@link HandLowerSchema}. */
export const HAND_LOWER_DESTINATION = '/app/hands/lower';
/** The raised hands ({@link HandsView}): the teacher gets the queue, a student the count and their own state. */
export const HAND_TOPIC_PREFIX = '/topic/hands/';

export const HandRaiseSchema = z.object({ roomId: idText(), raised: z.boolean() });
export type HandRaise = z.infer<typeof HandRaiseSchema>;
export const HandLowerSchema = z.object({ roomId: idText(), userId: z.string().min(1).max(200).optional() });
export type HandLower = z.infer<typeof HandLowerSchema>;

/** A raised hand in the teacher's queue, oldest first. */
export const RaisedHandSchema = z.object({
  userId: z.string(),
  nickname: z.string().nullable(),
  raisedDate: z.string(),
});
export type RaisedHand = z.infer<typeof RaisedHandSchema>;

/** The hands of a room as one reader sees them: `queue` only for the teacher (empty for a student). */
export const HandsViewSchema = z.object({
  roomId: z.number().int(),
  count: z.number().int(),
  raised: z.boolean(),
  queue: z.array(RaisedHandSchema),
});
export type HandsView = z.infer<typeof HandsViewSchema>;

/** The topic of a class's raised hands. */
export function handTopic(classId: number): string {
  return `${HAND_TOPIC_PREFIX}${classId}`;
}

/** Teacher: starts a poll, a quiz when `correct` names the right options. Body {@link PollCreateSchema}. */
export const POLL_CREATE_DESTINATION = '/app/polls';
/** Anyone but the teacher: answers a poll once. Body {@link PollVoteSchema}. */
export const POLL_VOTE_DESTINATION = '/app/polls/vote';
/** Teacher: closes a poll (no more answers). Body {@link PollActionSchema}. */
export const POLL_CLOSE_DESTINATION = '/app/polls/close';
/** Teacher: shows the results (and a quiz's answer) to the students. Body {@link PollActionSchema}. */
export const POLL_REVEAL_DESTINATION = '/app/polls/reveal';
/** A poll as it changes ({@link Poll}). */
export const POLL_TOPIC_PREFIX = '/topic/polls/';

export const MIN_POLL_OPTIONS = 2;
export const MAX_POLL_OPTIONS = 6;
/** Longest poll question and option, in characters. */
export const MAX_POLL_QUESTION_LENGTH = 200;
export const MAX_POLL_OPTION_LENGTH = 80;

const optionIndex = z
  .number()
  .int()
  .min(0)
  .max(MAX_POLL_OPTIONS - 1);

export const PollCreateSchema = z.object({
  roomId: idText(),
  question: z.string(),
  options: z.array(z.string()).min(MIN_POLL_OPTIONS).max(MAX_POLL_OPTIONS),
  multiple: z.boolean().default(false),
  /** The right options' indexes: a quiz. Absent or null: a poll. */
  correct: z.array(optionIndex).min(1).max(MAX_POLL_OPTIONS).nullable().optional(),
});
export type PollCreate = z.infer<typeof PollCreateSchema>;
export const PollVoteSchema = z.object({
  roomId: idText(),
  pollId: z.coerce.number().int().positive(),
  options: z.array(optionIndex).min(1).max(MAX_POLL_OPTIONS),
});
export type PollVote = z.infer<typeof PollVoteSchema>;
export const PollActionSchema = z.object({ roomId: idText(), pollId: z.coerce.number().int().positive() });
export type PollAction = z.infer<typeof PollActionSchema>;

/**
 * A poll as one reader sees it. `counts` (answers per option) and a quiz's `correct` are null for students until
 * the teacher reveals them; `voters` is how many answered; `myVote` is the reader's own answer (null on the
 * topic, where everyone gets one copy; the list route fills it in).
 */
export const PollSchema = z.object({
  id: z.number().int(),
  roomId: z.number().int(),
  sessionId: z.number().int(),
  question: z.string(),
  options: z.array(z.string()),
  multiple: z.boolean(),
  quiz: z.boolean(),
  correct: z.array(z.number().int()).nullable(),
  counts: z.array(z.number().int()).nullable(),
  voters: z.number().int(),
  closed: z.boolean(),
  revealed: z.boolean(),
  myVote: z.array(z.number().int()).nullable(),
  createdDate: z.string(),
});
export type Poll = z.infer<typeof PollSchema>;

/** The polls of one session, oldest first. */
export const PollListSchema = z.object({
  sessionId: z.number().int().nullable(),
  polls: z.array(PollSchema),
});
export type PollList = z.infer<typeof PollListSchema>;

/** The topic of a class's polls. */
export function pollTopic(classId: number): string {
  return `${POLL_TOPIC_PREFIX}${classId}`;
}

/** Anyone: sends one reaction. Body {@link ReactionSendSchema}. */
export const REACTION_DESTINATION = '/app/reactions';
/** The reactions of the last moment, aggregated ({@link ReactionCounts}), at most 4 updates a second per room. */
export const REACTION_TOPIC_PREFIX = '/topic/reactions/';
/** The reactions a room offers. */
export const REACTIONS = ['👍', '👏', '❤️', '😂', '😮', '🤔'] as const;
export type Reaction = (typeof REACTIONS)[number];
/** At most this many reaction updates a second reach a subscriber of one room, whatever the audience. */
export const REACTION_UPDATES_PER_SECOND = 4;

export const ReactionSendSchema = z.object({ roomId: idText(), emoji: z.enum(REACTIONS) });
export type ReactionSend = z.infer<typeof ReactionSendSchema>;

/** The reactions sent in the room since the previous update, by emoji (only those sent). */
export const ReactionCountsSchema = z.object({
  roomId: z.number().int(),
  counts: z.partialRecord(z.enum(REACTIONS), z.number().int()),
});
export type ReactionCounts = z.infer<typeof ReactionCountsSchema>;

/** The topic of a class's reactions. */
export function reactionTopic(classId: number): string {
  return `${REACTION_TOPIC_PREFIX}${classId}`;
}
