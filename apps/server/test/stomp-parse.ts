import type { StompFrame } from '../src/stomp/stomp-frame.ts';
import { StompParser, type ParseEvent } from '../src/stomp/stomp-parser.ts';

// What the STOMP parser's tests feed it and read back.

const utf8 = new TextEncoder();
export const bytes = (text: string): Uint8Array => utf8.encode(text);

export function parseAll(input: Uint8Array | string, parser = new StompParser()): ParseEvent[] {
  return parser.push(typeof input === 'string' ? bytes(input) : input);
}

export function frames(events: ParseEvent[]): StompFrame[] {
  return events.flatMap((event) => (event.type === 'frame' ? [event.frame] : []));
}

export function errors(events: ParseEvent[]): string[] {
  return events.flatMap((event) => (event.type === 'error' ? [event.message] : []));
}
