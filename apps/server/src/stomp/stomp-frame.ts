/**
 * STOMP 1.2 frames and their encoding. Pure: no I/O, no Node-only APIs, so the same code could run anywhere.
 * The grammar is the one of the STOMP 1.2 specification: a command line, header lines, a blank line, a body and
 * a NULL octet, lines ending in LF or CRLF.
 */

/** A decoded frame. Header names keep their case; when a header repeats, the first value wins (1.2 rule). */
export interface StompFrame {
  command: string;
  headers: Map<string, string>;
  body: Uint8Array;
}

/** Commands a client may send. */
export const CLIENT_COMMANDS = [
  'CONNECT',
  'STOMP',
  'SEND',
  'SUBSCRIBE',
  'UNSUBSCRIBE',
  'ACK',
  'NACK',
  'BEGIN',
  'COMMIT',
  'ABORT',
  'DISCONNECT',
] as const;

/** Commands a server sends. */
export const SERVER_COMMANDS = ['CONNECTED', 'MESSAGE', 'RECEIPT', 'ERROR'] as const;

export const ALL_COMMANDS: ReadonlySet<string> = new Set<string>([...CLIENT_COMMANDS, ...SERVER_COMMANDS]);

const EMPTY = new Uint8Array(0);
const encoder = new TextEncoder();
const decoder = new TextDecoder();

/** Builds a frame from plain values; a string body is UTF-8 encoded. */
export function stompFrame(
  command: string,
  headers: Record<string, string> | Map<string, string> = {},
  body: Uint8Array | string = EMPTY,
): StompFrame {
  return {
    command,
    headers: headers instanceof Map ? new Map(headers) : new Map(Object.entries(headers)),
    body: typeof body === 'string' ? encoder.encode(body) : body,
  };
}

/** The body decoded as UTF-8 (invalid sequences become U+FFFD). */
export function frameText(frame: StompFrame): string {
  return decoder.decode(frame.body);
}

/**
 * CONNECT and CONNECTED headers are never escaped (1.2 spec, "Value Encoding"), so that 1.0 peers can read them.
 * STOMP 1.0 has no escaping at all.
 */
export function usesEscaping(command: string, version: string): boolean {
  return version !== '1.0' && command !== 'CONNECT' && command !== 'CONNECTED';
}

/** Stands for a character the frame's version cannot carry in a header (see {@link encodeFrame}). */
export const UNCARRIABLE = '\uFFFD';

/**
 * Escapes a header name or value: backslash, LF and colon, and CR in 1.2. STOMP 1.1 has no escape for CR, so
 * a CR becomes {@link UNCARRIABLE} there, as does a NUL in any version.
 */
export function escapeHeader(text: string, version = '1.2'): string {
  let out = '';
  for (const char of text) {
    if (char === '\0') out += UNCARRIABLE;
    else if (char === '\\') out += '\\\\';
    else if (char === '\n') out += '\\n';
    else if (char === ':') out += '\\c';
    else if (char === '\r') out += version === '1.1' ? UNCARRIABLE : '\\r';
    else out += char;
  }
  return out;
}

/**
 * Encodes a frame. A `content-length` header is added whenever the body is not empty (so bodies may contain NUL
 * octets), and replaced if the caller gave a wrong one. Headers are escaped unless the command or version says
 * not to. It never throws and always yields a frame the peer can parse: text a version cannot carry (CR or LF
 * in an unescaped header, a colon in an unescaped name, CR in 1.1, NUL anywhere, an empty name) becomes
 * {@link UNCARRIABLE}. The parser refuses such text from peers, so only the server's own text could need it,
 * and an ERROR frame must still go out then.
 */
export function encodeFrame(frame: StompFrame, version = '1.2'): Uint8Array {
  const escape = usesEscaping(frame.command, version);
  let head = `${frame.command.replace(/[\r\n\0]/g, UNCARRIABLE)}\n`;
  for (const [name, value] of frame.headers) {
    if (name === 'content-length') continue;
    // An empty name would make a header line the parser refuses.
    const safeName = name === '' ? UNCARRIABLE : name;
    if (escape) {
      head += `${escapeHeader(safeName, version)}:${escapeHeader(value, version)}\n`;
    } else {
      head += `${safeName.replace(/[\r\n:\0]/g, UNCARRIABLE)}:${value.replace(/[\r\n\0]/g, UNCARRIABLE)}\n`;
    }
  }
  if (frame.body.length > 0) head += `content-length:${frame.body.length}\n`;
  head += '\n';
  const headBytes = encoder.encode(head);
  const out = new Uint8Array(headBytes.length + frame.body.length + 1);
  out.set(headBytes, 0);
  out.set(frame.body, headBytes.length);
  out[out.length - 1] = 0;
  return out;
}
