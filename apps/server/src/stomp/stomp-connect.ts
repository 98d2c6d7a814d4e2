import type { StompFrame } from './stomp-frame.ts';

/** Protocol versions the server speaks, best first. */
export const STOMP_VERSIONS = ['1.2', '1.1', '1.0'] as const;

/** What a CONNECT (or STOMP) frame asks for, once checked. */
export type ConnectRequest = {
  version: string;
  token: string;
  /** Milliseconds between the server's heart-beats (0: none) and the longest silence expected of the client. */
  sendEveryMs: number;
  expectEveryMs: number;
};

/**
 * Reads a CONNECT frame: the highest common version (no `accept-version` means 1.0), the heart-beats the two
 * sides will keep (each side's interval is the slower of what one offers and the other wants; 1.0 has none)
 * and the bearer token. Answers an error text for the ERROR frame instead when the frame cannot be accepted.
 */
export function readConnect(frame: StompFrame, offeredMs: number): ConnectRequest | { error: string } {
  const accepted = (frame.headers.get('accept-version') ?? '1.0').split(',').map((v) => v.trim());
  const version = STOMP_VERSIONS.find((v) => accepted.includes(v));
  if (!version) return { error: 'unsupported protocol version' };
  let clientSends = 0;
  let clientWants = 0;
  if (version !== '1.0') {
    const match = /^(\d{1,9}),(\d{1,9})$/.exec(frame.headers.get('heart-beat') ?? '0,0');
    if (!match) return { error: 'invalid heart-beat header' };
    clientSends = Number(match[1]);
    clientWants = Number(match[2]);
  }
  const token = bearerToken(frame.headers);
  if (!token) return { error: 'missing bearer token' };
  return {
    version,
    token,
    sendEveryMs: clientWants > 0 ? Math.max(offeredMs, clientWants) : 0,
    expectEveryMs: clientSends > 0 ? Math.max(offeredMs, clientSends) : 0,
  };
}

/** The token of an `Authorization: Bearer …` header; the header name's case is not significant. */
function bearerToken(headers: Map<string, string>): string | null {
  for (const [name, value] of headers) {
    if (name.toLowerCase() !== 'authorization') continue;
    const match = /^Bearer\s+(\S+)$/i.exec(value.trim());
    return match?.[1] ?? null;
  }
  return null;
}
