import type { SessionChatMessage } from '@sea/contract/sessions';

/**
 * How many of `messages` (in time order, as the chat route gives them) the video has reached at `timeMs`: a
 * message shows once the playback time reaches its `offset_ms`. Binary search, since it runs on every
 * `timeupdate`.
 */
export function reachedCount(
  messages: readonly Pick<SessionChatMessage, 'offset_ms'>[],
  timeMs: number,
): number {
  let low = 0;
  let high = messages.length;
  while (low < high) {
    const middle = (low + high) >>> 1;
    const message = messages[middle];
    if (message !== undefined && message.offset_ms <= timeMs) low = middle + 1;
    else high = middle;
  }
  return low;
}

/** The messages shown at `timeMs` of the video. */
export function visibleMessages<T extends Pick<SessionChatMessage, 'offset_ms'>>(
  messages: readonly T[],
  timeMs: number,
): T[] {
  return messages.slice(0, reachedCount(messages, timeMs));
}

/** Where a click on a message seeks the video, in seconds: the message's own moment. */
export function seekSecondsFor(message: Pick<SessionChatMessage, 'offset_ms'>): number {
  return message.offset_ms / 1000;
}
