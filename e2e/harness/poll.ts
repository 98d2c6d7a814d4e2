import { expect } from 'vitest';

/** Polls until the expectation holds; pages here load over a real server, so allow a few seconds. */
export function eventually<T>(read: () => T | Promise<T>) {
  return expect.poll(read, { timeout: 15_000, interval: 100 });
}
