import type { LiveError } from '../live-error.ts';

/** What {@link unlessClosed} watches: an object with a `closed` signal emitted once. */
export type Closable = {
  readonly isClosedNow: boolean;
  readonly closed: { subscribe(listener: () => void): () => void };
};

/**
 * Awaits `work` on behalf of `owner`, which may close meanwhile: settles as `work` does while `owner` stays open,
 * and rejects with `refusal()` as soon as it closes, or if it closed by the time `work` settled.
 *
 * Two reasons. werift leaves some calls pending for ever on a connection closed under them
 * (`setLocalDescription` and `setRemoteDescription`, when the close falls between their two checks), and a
 * request must never go unanswered. And what follows an await must not run on a closed object: it would start
 * timers and subscriptions that nobody releases.
 */
export async function unlessClosed<T>(
  owner: Closable,
  work: Promise<T>,
  refusal: () => LiveError,
): Promise<T> {
  let release = () => {};
  const ended = new Promise<never>((_, reject) => {
    if (owner.isClosedNow) reject(refusal());
    else release = owner.closed.subscribe(() => reject(refusal()));
  });
  try {
    const value = await Promise.race([work, ended]);
    if (owner.isClosedNow) throw refusal();
    return value;
  } finally {
    release();
  }
}
