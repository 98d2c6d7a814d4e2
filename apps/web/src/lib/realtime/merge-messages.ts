import type { ChatMessage } from '@sea/contract/chat';

/** Messages a panel keeps; older ones are dropped (the history route still has them). */
export const MAX_KEPT_MESSAGES = 1000;

/**
 * Merges newly arrived messages into a list ordered by id, dropping repeats: the same message may come from
 * the history and from the live subscription, and messages of other instances may arrive out of order.
 * Returns the same array when nothing new arrived, so React can skip a render.
 */
export function mergeMessages(
  current: readonly ChatMessage[],
  incoming: readonly ChatMessage[],
  max = MAX_KEPT_MESSAGES,
): readonly ChatMessage[] {
  const known = new Set(current.map((message) => message.id));
  const fresh = incoming.filter((message) => {
    if (known.has(message.id)) return false;
    known.add(message.id);
    return true;
  });
  if (fresh.length === 0) return current;
  const last = current.at(-1);
  const inOrder =
    last === undefined || fresh.every((message, i) => message.id > (fresh[i - 1]?.id ?? last.id));
  const merged = inOrder ? [...current, ...fresh] : [...current, ...fresh].sort((a, b) => a.id - b.id);
  return merged.length > max ? merged.slice(merged.length - max) : merged;
}
