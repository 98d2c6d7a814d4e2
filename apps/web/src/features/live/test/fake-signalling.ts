import type { LiveRequestName } from '@sea/contract/live';
import { Emitter } from '../../../lib/emitter.ts';
import type { SignallingEvents, SignallingLike } from '../signalling-client.ts';

/** The requests that consume two tracks on a fresh consumer transport, in order. */
export const CONSUME_TWO_TRACKS: readonly LiveRequestName[] = [
  'getRouterRtpCapabilities',
  'createConsumerTransport',
  'consume',
  'resume',
  'resume',
  'connectConsumerTransport',
];

/** Answers of the fake, per request: a value, or a thrown error (a refusal). */
export type FakeAnswers = Partial<Record<LiveRequestName, (payload: unknown) => unknown>>;

/**
 * A signalling fake for the room classes: answers requests from a table the test may change at any time,
 * records every request in order, and lets the test emit server and connection events.
 */
export function fakeSignalling(initial: FakeAnswers) {
  const calls: { name: LiveRequestName; payload: unknown }[] = [];
  const events = new Emitter<SignallingEvents>();
  const answers: FakeAnswers = { ...initial };
  const signalling = {
    request: async (name: LiveRequestName, payload: unknown) => {
      calls.push({ name, payload });
      const answer = answers[name];
      if (!answer) throw new Error(`unexpected ${name}`);
      return answer(payload);
    },
    on: (event: keyof SignallingEvents, listener: (value: unknown) => void) => events.on(event, listener),
  } as unknown as SignallingLike;
  const emit = <K extends keyof SignallingEvents>(event: K, value: SignallingEvents[K]) =>
    events.emit(event, value);
  /** How many listeners are still subscribed (0 after the client closed). */
  const listening = () => events.size;
  const names = () => calls.map((call) => call.name);
  return { signalling, calls, names, emit, answers, listening };
}
