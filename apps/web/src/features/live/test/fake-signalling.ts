import type { LiveRequestName } from '@sea/contract/live';
import type { SignallingEvents, SignallingLike } from '../signalling-client.ts';

/** Answers of the fake, per request: a value, or a thrown error (a refusal). */
export type FakeAnswers = Partial<Record<LiveRequestName, (payload: unknown) => unknown>>;

/**
 * A signalling fake for the room classes: answers requests from a table the test may change at any time,
 * records every request in order, and lets the test emit server and connection events.
 */
export function fakeSignalling(initial: FakeAnswers) {
  const calls: { name: LiveRequestName; payload: unknown }[] = [];
  const listeners = new Map<string, Set<(value: unknown) => void>>();
  const answers: FakeAnswers = { ...initial };
  const signalling = {
    request: async (name: LiveRequestName, payload: unknown) => {
      calls.push({ name, payload });
      const answer = answers[name];
      if (!answer) throw new Error(`unexpected ${name}`);
      return answer(payload);
    },
    on: (event: string, listener: (value: unknown) => void) => {
      const set = listeners.get(event) ?? new Set();
      listeners.set(event, set);
      set.add(listener);
      return () => set.delete(listener);
    },
  } as unknown as SignallingLike;
  const emit = <K extends keyof SignallingEvents>(event: K, value: SignallingEvents[K]) =>
    listeners.get(event)?.forEach((listener) => listener(value));
  /** How many listeners are still subscribed (0 after the client closed). */
  const listening = () => [...listeners.values()].reduce((sum, set) => sum + set.size, 0);
  const names = () => calls.map((call) => call.name);
  return { signalling, calls, names, emit, answers, listening };
}
