import { createSecretKey, type KeyObject } from 'node:crypto';
import { SrtcpSession, SrtpSession } from 'werift';

/** The session-key fields of werift's SRTP ciphers (AES-GCM has the first two, AES-CM with HMAC all four). */
const KEY_FIELDS = [
  'srtpSessionKey',
  'srtcpSessionKey',
  'srtpSessionAuthTag',
  'srtcpSessionAuthTag',
] as const;

type KeyHolder = Partial<Record<(typeof KEY_FIELDS)[number], Buffer | KeyObject>>;
type AnySession = SrtpSession | SrtcpSession;
type Start = (this: AnySession, ...args: Parameters<SrtpSession['start']>) => void;

const INSTALLED = Symbol.for('sea.media.srtpKeyObjects');

/**
 * Makes one SRTP or SRTCP session use prepared key objects instead of raw key buffers.
 *
 * Why: werift (0.25.2) builds a new `createCipheriv` (and, for AES-CM, `createHmac`) per packet from the raw
 * session-key `Buffer`. Node 24 then prepares the key from scratch each time (`prepareSecretKey`, about 10 µs
 * of a 17 µs AES-GCM encryption); in a profile of the SFU at 50 students that was a quarter of its busy time.
 * Node's crypto functions accept a `KeyObject` wherever they take a key, and one made once per session
 * skips that work. Only the key's form changes: the ciphers, IVs, counters and tags are werift's own, so the
 * output is byte for byte what werift produces (`srtp-key-objects.test.ts` proves it for both profiles).
 */
export function useSrtpKeyObjects(session: AnySession): void {
  for (const context of [session.localContext, session.remoteContext]) {
    const cipher = context?.cipher as KeyHolder | undefined;
    if (!cipher) continue;
    for (const field of KEY_FIELDS) {
      const key = cipher[field];
      if (Buffer.isBuffer(key)) cipher[field] = createSecretKey(key);
    }
  }
}

/**
 * Applies {@link useSrtpKeyObjects} to every SRTP and SRTCP session werift starts from now on, in this process
 * (werift starts them when a DTLS handshake completes). Idempotent. Patching werift at run time is the only
 * hook: the sessions are created inside its DTLS transport; node_modules is never edited.
 */
export function installSrtpKeyObjects(): void {
  for (const cls of [SrtpSession, SrtcpSession]) {
    const proto = cls.prototype as unknown as { start: Start; [INSTALLED]?: true };
    if (proto[INSTALLED]) continue;
    const start = proto.start;
    proto.start = function (this: AnySession, ...args) {
      start.apply(this, args);
      useSrtpKeyObjects(this);
    };
    proto[INSTALLED] = true;
  }
}
