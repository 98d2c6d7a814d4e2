/** Resolves after `ms`. */
export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Polls `read` until `done` holds (every 200 ms, at most `ms`); returns the time it took, or null. */
export async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, ms: number) {
  const start = performance.now();
  while (performance.now() - start < ms) {
    if (done(await read())) return Math.round(performance.now() - start);
    await sleep(200);
  }
  return null;
}
