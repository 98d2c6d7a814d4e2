// The lines of a frame's head as the parser reads them: CRs, UTF-8 and header escapes (STOMP 1.0-1.2).

/** A peer that broke the protocol: the parser reports it and the session ends. */
export class ProtocolError extends Error {}

const strictUtf8 = new TextDecoder('utf-8', { fatal: true });

/**
 * A command or header line without its EOL's CR. Any other CR is refused: 1.2 escapes it (`\\r`), and 1.0,
 * 1.1 and CONNECT frames have no way to send it back, so a header value holding one could never be echoed
 * (as a subscription id or receipt) in a frame the peer can read.
 */
export function headLine(line: string): string {
  const text = line.endsWith('\r') ? line.slice(0, -1) : line;
  if (text.includes('\r')) throw new ProtocolError('carriage return inside a header line');
  return text;
}

export function decodeUtf8(bytes: Uint8Array): string {
  try {
    return strictUtf8.decode(bytes);
  } catch {
    throw new ProtocolError('header is not valid UTF-8');
  }
}

/** Reverses header escaping; an undefined escape sequence is a protocol error (1.2 spec; 1.1 has no `\\r`). */
export function unescapeHeader(text: string, version: string): string {
  if (!text.includes('\\')) return text;
  let out = '';
  for (let i = 0; i < text.length; i += 1) {
    const char = text[i];
    if (char !== '\\') {
      out += char;
      continue;
    }
    const next = text[i + 1];
    i += 1;
    if (next === 'n') out += '\n';
    else if (next === 'r' && version !== '1.1') out += '\r';
    else if (next === 'c') out += ':';
    else if (next === '\\') out += '\\';
    else throw new ProtocolError('undefined escape sequence in a header');
  }
  return out;
}
