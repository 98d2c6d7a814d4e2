/**
 * SockJS framing (the SockJS protocol 0.3): what the server writes on every transport, and how it reads what
 * clients send. Pure functions; the transports add their own line or event framing around a frame.
 */

/** The session is open. */
export const OPEN_FRAME = 'o';
/** Nothing to say, still here (keeps proxies from closing an idle response or socket). */
export const HEARTBEAT_FRAME = 'h';

// Characters JSON may carry raw that browsers, proxies or JavaScript parsers have been seen to mangle: the
// protocol escapes them as \uXXXX, as the reference server does.
// eslint-disable-next-line no-control-regex
const ESCAPED = /[\x00-\x1f\ud800-\udfff\u200c-\u200f\u2028-\u202f\u2060-\u206f\ufff0-\uffff]/g;

function quote(text: string): string {
  return JSON.stringify(text).replace(ESCAPED, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, '0')}`);
}

/** Messages for the client, in order, as one frame. */
export function messageFrame(messages: readonly string[]): string {
  return `a[${messages.map(quote).join(',')}]`;
}

/** The session ends with this code and reason (3000 "Go away!" when the server closes it). */
export function closeFrame(code: number, reason: string): string {
  return `c${JSON.stringify([code, reason])}`;
}

export const GO_AWAY = closeFrame(3000, 'Go away!');
export const ANOTHER_CONNECTION = closeFrame(2010, 'Another connection still open');

/**
 * The messages of a client's payload: a JSON array of strings (every transport), or a single JSON string
 * (allowed on the websocket transport); null when it is neither.
 */
export function readMessages(payload: string, single: 'single allowed' | 'array only'): string[] | null {
  let parsed: unknown;
  try {
    parsed = JSON.parse(payload);
  } catch {
    return null;
  }
  if (typeof parsed === 'string' && single === 'single allowed') return [parsed];
  if (!Array.isArray(parsed) || !parsed.every((item) => typeof item === 'string')) return null;
  return parsed;
}

/** Escapes a frame for an `EventSource` `data:` line; the client reads it back with `decodeURI`. */
export function eventSourceData(frame: string): string {
  return frame.replace(
    /[%\r\n\0]/g,
    (c) => `%${c.charCodeAt(0).toString(16).padStart(2, '0').toUpperCase()}`,
  );
}
