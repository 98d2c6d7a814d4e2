import { CHAT_ERROR_DESTINATION, CHAT_SEND_DESTINATION, chatTopic } from '@sea/contract/chat';

/** A small seeded generator (mulberry32): a failing fuzz run can be repeated from its seed. */
export class Random {
  #state: number;

  constructor(seed: number) {
    this.#state = seed >>> 0;
  }

  /** A float in [0, 1). */
  next(): number {
    this.#state = (this.#state + 0x6d2b79f5) >>> 0;
    let t = this.#state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  }

  int(below: number): number {
    return Math.floor(this.next() * below);
  }

  chance(p: number): boolean {
    return this.next() < p;
  }

  pick<T>(items: readonly T[]): T {
    const item = items[this.int(items.length)];
    if (item === undefined) throw new Error('pick from an empty list');
    return item;
  }
}

/** Pieces header text is made of: everything escaping and line splitting must survive. */
const TEXT_PIECES = [
  'a',
  'Z',
  '7',
  ':',
  '\\',
  '\\n',
  '\\r',
  '\\c',
  '\\\\',
  '\\t',
  '\n',
  '\r',
  '\r\n',
  '\0',
  ' ',
  '바',
  '🌊',
  'sub-0',
  '/',
] as const;

const COMMANDS = [
  'SUBSCRIBE',
  'SUBSCRIBE',
  'SUBSCRIBE',
  'SEND',
  'SEND',
  'SEND',
  'SEND',
  'UNSUBSCRIBE',
  'UNSUBSCRIBE',
  'ACK',
  'NACK',
  'DISCONNECT',
  'BEGIN',
  'CONNECT',
  'STOMP',
  'MESSAGE',
  'SE\rND',
  'send',
  '',
] as const;

const HEADER_NAMES = [
  'id',
  'id',
  'destination',
  'destination',
  'receipt',
  'ack',
  'content-length',
  'transaction',
  'content-type',
  'accept-version',
] as const;

const CLEAN_PIECES = TEXT_PIECES.filter((piece) => !/[\r\0]/.test(piece));

function text(random: Random, maxPieces: number, pieces: readonly string[] = TEXT_PIECES): string {
  let out = '';
  for (let i = random.int(maxPieces + 1); i > 0; i -= 1) out += random.pick(pieces);
  return out;
}

/** Header text of a well-formed frame: a raw CR only now and then (1.0 and 1.1 peers cannot escape one). */
function headerText(random: Random, maxPieces: number): string {
  const clean = text(random, maxPieces, CLEAN_PIECES);
  if (!random.chance(0.03)) return clean;
  const at = random.int(clean.length + 1);
  return `${clean.slice(0, at)}\r${clean.slice(at)}`;
}

/**
 * Random STOMP input for a session that is already connected with `version`. Most inputs are frames a peer
 * of that version could send (encoded as such a client would, independently of the server's codec: ids,
 * receipts and contents hold colons, backslashes, newlines where escaping exists, and now and then a raw CR
 * that 1.0 and 1.1 cannot escape), so that a run reaches subscriptions, sends, refusals and deliveries. The
 * rest are raw text of every client command and some that are not, with broken headers, escapes and lengths,
 * and sometimes a few bytes overwritten.
 */
export function randomStompInput(random: Random, classId: number, version: string): Uint8Array {
  return random.chance(0.92) ? wellFormed(random, classId, version) : broken(random, classId);
}

function destination(random: Random, classId: number): string {
  const roll = random.int(100);
  if (roll < 80) return chatTopic(classId);
  if (roll < 95) return CHAT_ERROR_DESTINATION;
  return random.pick([chatTopic(999_999), `/topic/greetings/${text(random, 3)}`]);
}

function chatBody(random: Random, classId: number): string {
  const content = random.chance(0.02) ? 'x'.repeat(1001) : text(random, 8);
  return JSON.stringify({ roomId: random.chance(0.95) ? classId : text(random, 2), content });
}

function wellFormed(random: Random, classId: number, version: string): Uint8Array {
  const headers = new Map<string, string>();
  const maybe = (p: number, name: string, value: () => string): void => {
    if (random.chance(p)) headers.set(name, value());
  };
  const roll = random.int(100);
  let command: string;
  let body = '';
  if (roll < 30) {
    command = 'SUBSCRIBE';
    maybe(0.99, 'id', () => headerText(random, 4));
    maybe(0.99, 'destination', () => destination(random, classId));
    maybe(0.03, 'ack', () => random.pick(['auto', 'auto', 'client', 'client-individual']));
  } else if (roll < 83) {
    command = 'SEND';
    maybe(0.99, 'destination', () => (random.chance(0.99) ? CHAT_SEND_DESTINATION : headerText(random, 3)));
    maybe(0.3, 'content-type', () => 'application/json');
    body = random.chance(0.95) ? chatBody(random, classId) : text(random, 10);
  } else if (roll < 98) {
    command = 'UNSUBSCRIBE';
    maybe(0.99, 'id', () => headerText(random, 4));
  } else {
    command = random.pick(['ACK', 'NACK', 'DISCONNECT', 'BEGIN', 'COMMIT', 'ABORT']);
    maybe(0.8, 'id', () => headerText(random, 4));
    maybe(0.5, 'transaction', () => headerText(random, 3));
  }
  maybe(0.5, 'receipt', () => headerText(random, 5));
  maybe(0.1, headerText(random, 3) || 'x', () => headerText(random, 6));
  return encodeAs(version, command, headers, body);
}

/**
 * Encodes a frame as a client of `version` would: 1.2 escapes backslash, LF, colon and CR; 1.1 has no escape
 * for CR and sends it raw; 1.0 escapes nothing (an LF cannot be sent at all and is dropped). A NUL in a header
 * is dropped (no client sends one); the body gets a content-length when it holds a NUL, else now and then.
 */
function encodeAs(version: string, command: string, headers: Map<string, string>, body: string): Uint8Array {
  const escapes: Record<string, string> = { '\\': '\\\\', '\n': '\\n', ':': '\\c', '\r': '\\r' };
  const encode = (value: string, isName: boolean): string => {
    const clean = value.replaceAll('\0', '');
    if (version === '1.0') return clean.replace(isName ? /[\n:]/g : /\n/g, '');
    return clean.replace(version === '1.1' ? /[\\\n:]/g : /[\\\n:\r]/g, (char) => escapes[char] ?? char);
  };
  const bodyBytes = new TextEncoder().encode(body);
  let head = `${command}\n`;
  for (const [name, value] of headers) {
    if (name !== 'content-length') head += `${encode(name, true) || 'x'}:${encode(value, false)}\n`;
  }
  if (body.includes('\0') || (body.length > 0 && bodyBytes.length % 2 === 0))
    head += `content-length:${bodyBytes.length}\n`;
  const headBytes = new TextEncoder().encode(`${head}\n`);
  const out = new Uint8Array(headBytes.length + bodyBytes.length + 1);
  out.set(headBytes, 0);
  out.set(bodyBytes, headBytes.length);
  return out;
}

function broken(random: Random, classId: number): Uint8Array {
  const command = random.pick(COMMANDS);
  const eol = random.chance(0.2) ? '\r\n' : '\n';
  const headers: string[] = [];
  for (let i = random.int(5); i >= 0; i -= 1) {
    const name = random.chance(0.9) ? random.pick(HEADER_NAMES) : text(random, 3);
    let value: string;
    if (name === 'destination')
      value = command === 'SEND' ? CHAT_SEND_DESTINATION : destination(random, classId);
    else if (name === 'content-length') value = String(random.int(40));
    else value = text(random, 6);
    headers.push(`${name}:${value}`);
  }
  const body = random.chance(0.6) ? chatBody(random, classId) : text(random, 10);
  const wire = `${random.chance(0.1) ? eol : ''}${command}${eol}${headers.join(eol)}${eol}${eol}${body}\0`;
  const bytes = new TextEncoder().encode(wire);
  if (random.chance(0.2)) {
    for (let i = random.int(4); i >= 0; i -= 1) bytes[random.int(bytes.length)] = random.int(256);
  }
  return bytes;
}

/** Cuts input into 1 to 3 pieces at random points, as a network may deliver it. */
export function randomChunks(random: Random, bytes: Uint8Array): Uint8Array[] {
  const cuts = [random.int(bytes.length + 1), random.int(bytes.length + 1)]
    .slice(0, random.int(3))
    .sort((a, b) => a - b);
  const pieces: Uint8Array[] = [];
  let last = 0;
  for (const cut of cuts) {
    pieces.push(bytes.subarray(last, cut));
    last = cut;
  }
  pieces.push(bytes.subarray(last));
  return pieces.filter((piece) => piece.length > 0);
}
