import { ALL_COMMANDS, usesEscaping, type StompFrame } from './stomp-frame.ts';
import { decodeUtf8, headLine, ProtocolError, unescapeHeader } from './stomp-head-lines.ts';

/** What one call to {@link StompParser.push} found, in order. */
export type ParseEvent =
  | { type: 'frame'; frame: StompFrame }
  /** An EOL between frames: a heart-beat from the peer. */
  | { type: 'heartbeat' }
  /** The input broke the protocol or a limit; the parser stops here and ignores anything pushed later. */
  | { type: 'error'; message: string };

export interface StompParserLimits {
  /** Largest frame (command, headers and body) in bytes. */
  maxFrameBytes: number;
  /** Most header lines in one frame. */
  maxHeaders: number;
  /** Largest command-and-headers section in bytes. */
  maxHeadBytes: number;
}

export const DEFAULT_PARSER_LIMITS: StompParserLimits = {
  maxFrameBytes: 64 * 1024,
  maxHeaders: 32,
  maxHeadBytes: 8 * 1024,
};

const LF = 0x0a;
const CR = 0x0d;
const NUL = 0x00;
const INITIAL_BUFFER_BYTES = 1024;
/** A buffer grown past this by a large frame is given back once the frame is read. */
const KEEP_BUFFER_BYTES = 8 * 1024;

/**
 * An incremental STOMP frame parser: bytes may arrive split at any point (inside a header, inside a multi-byte
 * character, between the body and its NULL). It never throws on bad input: a broken frame yields one `error`
 * event and the parser then stays failed, since after a framing error nothing later on the stream can be trusted.
 */
export class StompParser {
  /** Negotiated protocol version; decides whether header values are unescaped (not in 1.0). */
  version = '1.2';

  readonly #limits: StompParserLimits;
  #buf = new Uint8Array(INITIAL_BUFFER_BYTES);
  #start = 0;
  #end = 0;
  #state: 'between' | 'head' | 'body' = 'between';
  #failed = false;
  // Progress inside the current frame, kept so that every byte is scanned only once.
  #frameStart = 0;
  #lineStart = 0;
  #lineCount = 0;
  #bodyStart = 0;
  /** Where the search for the next LF or NULL resumes, so that no byte is scanned twice. */
  #scan = 0;
  #contentLength: number | null = null;
  #command = '';
  #headers = new Map<string, string>();

  constructor(limits: Partial<StompParserLimits> = {}) {
    this.#limits = { ...DEFAULT_PARSER_LIMITS, ...limits };
  }

  /** True once an error was reported. */
  get failed(): boolean {
    return this.#failed;
  }

  /** Bytes of buffer the parser holds (memory per session). */
  get capacity(): number {
    return this.#buf.length;
  }

  /** Feeds bytes and returns every complete frame, heart-beat and error they finish. */
  push(chunk: Uint8Array): ParseEvent[] {
    if (this.#failed) return [];
    this.#append(chunk);
    const events: ParseEvent[] = [];
    try {
      for (;;) {
        const event = this.#step();
        if (event === null) break;
        events.push(event);
      }
      this.#shrink();
    } catch (error) {
      this.#failed = true;
      this.#buf = new Uint8Array(0);
      this.#start = this.#end = 0;
      const message = error instanceof ProtocolError ? error.message : 'malformed frame';
      events.push({ type: 'error', message });
    }
    return events;
  }

  #append(chunk: Uint8Array): void {
    if (this.#end + chunk.length > this.#buf.length) {
      // Move the unread bytes to the front, growing by doubling: appends stay linear in the input size.
      const pending = this.#end - this.#start;
      let size = this.#buf.length;
      while (size < pending + chunk.length) size *= 2;
      if (size === this.#buf.length) {
        this.#buf.copyWithin(0, this.#start, this.#end);
      } else {
        const next = new Uint8Array(size);
        next.set(this.#buf.subarray(this.#start, this.#end), 0);
        this.#buf = next;
      }
      this.#shift(this.#start);
      this.#start = 0;
      this.#end = pending;
    }
    this.#buf.set(chunk, this.#end);
    this.#end += chunk.length;
  }

  /**
   * Gives back the memory of a large frame once it is read: the unread rest (the start of the next frame, if
   * any) moves to a small buffer, as {@link #append} moves it when growing.
   */
  #shrink(): void {
    const pending = this.#end - this.#start;
    if (this.#buf.length <= KEEP_BUFFER_BYTES || pending > INITIAL_BUFFER_BYTES) return;
    const next = new Uint8Array(INITIAL_BUFFER_BYTES);
    next.set(this.#buf.subarray(this.#start, this.#end), 0);
    this.#buf = next;
    this.#shift(this.#start);
    this.#start = 0;
    this.#end = pending;
  }

  /** Rebases the positions kept for the current frame after the buffer moved left by `by` bytes. */
  #shift(by: number): void {
    this.#frameStart -= by;
    this.#lineStart -= by;
    this.#bodyStart -= by;
    this.#scan -= by;
  }

  #step(): ParseEvent | null {
    if (this.#state === 'between') return this.#skipEols();
    if (this.#state === 'head') {
      if (!this.#readHead()) return null;
    }
    return this.#readBody();
  }

  #skipEols(): ParseEvent | null {
    const buf = this.#buf;
    while (this.#start < this.#end) {
      const byte = buf[this.#start];
      if (byte === LF) {
        this.#start += 1;
        return { type: 'heartbeat' };
      }
      if (byte === CR) {
        if (this.#start + 1 >= this.#end) return null; // wait for the LF
        if (buf[this.#start + 1] !== LF) throw new ProtocolError('stray carriage return between frames');
        this.#start += 2;
        return { type: 'heartbeat' };
      }
      this.#state = 'head';
      this.#frameStart = this.#lineStart = this.#scan = this.#start;
      this.#lineCount = 0;
      return this.#readHead() ? this.#readBody() : null;
    }
    return null;
  }

  /** Finds the blank line that ends the headers, then decodes them; false when more input is needed. */
  #readHead(): boolean {
    // One view bounded by the data received: a search never runs into stale bytes past `#end`.
    const view = this.#buf.subarray(0, this.#end);
    for (;;) {
      const lineEnd = view.indexOf(LF, Math.max(this.#lineStart, this.#scan));
      if (lineEnd < 0) {
        this.#scan = this.#end;
        if (this.#end - this.#frameStart > this.#limits.maxHeadBytes)
          throw new ProtocolError('headers too large');
        return false;
      }
      const lineStart = this.#lineStart;
      this.#lineStart = lineEnd + 1;
      if (this.#lineStart - this.#frameStart > this.#limits.maxHeadBytes)
        throw new ProtocolError('headers too large');
      const blank = lineEnd === lineStart || (lineEnd === lineStart + 1 && view[lineStart] === CR);
      if (blank) {
        this.#parseHead(view.subarray(this.#frameStart, lineStart));
        break;
      }
      // The command line plus at most `maxHeaders` header lines.
      this.#lineCount += 1;
      if (this.#lineCount > this.#limits.maxHeaders + 1) throw new ProtocolError('too many headers');
    }
    this.#state = 'body';
    this.#bodyStart = this.#scan = this.#lineStart;
    return true;
  }

  /**
   * Decodes the command and header lines in one pass (an LF byte never occurs inside a multi-byte UTF-8
   * character, so decoding the whole section and then splitting it equals decoding line by line).
   */
  #parseHead(bytes: Uint8Array): void {
    if (bytes.indexOf(NUL) >= 0) throw new ProtocolError('NULL octet in a header');
    const text = decodeUtf8(bytes);
    let lineEnd = text.indexOf('\n');
    const command = headLine(text.slice(0, lineEnd));
    // JSON quoting: the peer's text goes into an ERROR header, which must stay one line in every version.
    if (!ALL_COMMANDS.has(command))
      throw new ProtocolError(`unknown command ${JSON.stringify(command.slice(0, 20))}`);
    const escaped = usesEscaping(command, this.version);
    const headers = new Map<string, string>();
    while (lineEnd + 1 < text.length) {
      const lineStart = lineEnd + 1;
      lineEnd = text.indexOf('\n', lineStart);
      const line = headLine(text.slice(lineStart, lineEnd));
      const colon = line.indexOf(':');
      if (colon <= 0) throw new ProtocolError('malformed header');
      const name = escaped ? unescapeHeader(line.slice(0, colon), this.version) : line.slice(0, colon);
      const value = escaped ? unescapeHeader(line.slice(colon + 1), this.version) : line.slice(colon + 1);
      if (!headers.has(name)) headers.set(name, value);
    }
    const length = headers.get('content-length');
    if (length !== undefined) {
      if (!/^\d{1,10}$/.test(length)) throw new ProtocolError('invalid content-length');
      this.#contentLength = Number(length);
      if (this.#contentLength > this.#limits.maxFrameBytes) throw new ProtocolError('frame too large');
    } else {
      this.#contentLength = null;
    }
    this.#command = command;
    this.#headers = headers;
  }

  #readBody(): ParseEvent | null {
    const buf = this.#buf;
    let bodyEnd: number;
    if (this.#contentLength !== null) {
      bodyEnd = this.#bodyStart + this.#contentLength;
      if (bodyEnd - this.#frameStart > this.#limits.maxFrameBytes) throw new ProtocolError('frame too large');
      if (this.#end <= bodyEnd) return null;
      if (buf[bodyEnd] !== NUL) throw new ProtocolError('frame not terminated by NULL after content-length');
    } else {
      const from = Math.max(this.#bodyStart, this.#scan);
      const found = buf.subarray(from, this.#end).indexOf(NUL);
      if (found < 0) {
        this.#scan = this.#end;
        if (this.#end - this.#frameStart > this.#limits.maxFrameBytes)
          throw new ProtocolError('frame too large');
        return null;
      }
      bodyEnd = from + found;
      if (bodyEnd - this.#frameStart > this.#limits.maxFrameBytes) throw new ProtocolError('frame too large');
    }
    const frame: StompFrame = {
      command: this.#command,
      headers: this.#headers,
      body: buf.slice(this.#bodyStart, bodyEnd),
    };
    this.#start = bodyEnd + 1;
    this.#state = 'between';
    this.#headers = new Map();
    return { type: 'frame', frame };
  }
}
