import type {
  SessionChatMessage,
  SessionClassroom,
  SessionPoll,
  SessionQuestion,
} from '@sea/contract/sessions';

/** One thing the replay's chat pane shows at its moment: a chat message, a question or a poll. */
export type ReplayMoment =
  | { kind: 'message'; offset_ms: number; message: SessionChatMessage }
  | { kind: 'question'; offset_ms: number; question: SessionQuestion }
  | { kind: 'poll'; offset_ms: number; poll: SessionPoll };

/**
 * The session's messages, questions and polls as one list in time order (each list comes in time order from
 * the server). At the same moment a message comes first, then a question, then a poll: the order they were
 * most likely written in (a question is often announced in the chat).
 */
export function replayMoments(
  messages: readonly SessionChatMessage[],
  classroom: SessionClassroom | undefined,
): ReplayMoment[] {
  const moments: ReplayMoment[] = [
    ...messages.map((message) => ({ kind: 'message' as const, offset_ms: message.offset_ms, message })),
    ...(classroom?.questions ?? []).map((question) => ({
      kind: 'question' as const,
      offset_ms: question.offset_ms,
      question,
    })),
    ...(classroom?.polls ?? []).map((poll) => ({ kind: 'poll' as const, offset_ms: poll.offset_ms, poll })),
  ];
  // Array.prototype.sort is stable: equal moments keep the order above.
  return moments.sort((a, b) => a.offset_ms - b.offset_ms);
}

/** The key of a moment in the pane's list: ids are only unique within their kind. */
export function momentKey(moment: ReplayMoment): string {
  const id =
    moment.kind === 'message'
      ? moment.message.id
      : moment.kind === 'question'
        ? moment.question.id
        : moment.poll.id;
  return `${moment.kind}-${id}`;
}
