/**
 * Settles as `work` does, or rejects with `late()` once `deadlineMs` has passed, whichever comes first. `work`
 * itself is not stopped: what it does after the deadline is no longer anyone's answer.
 */
export async function withinDeadline<T>(work: Promise<T>, deadlineMs: number, late: () => Error): Promise<T> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<never>((_, reject) => {
    timer = setTimeout(() => reject(late()), deadlineMs);
  });
  try {
    return await Promise.race([work, expired]);
  } finally {
    clearTimeout(timer);
  }
}
