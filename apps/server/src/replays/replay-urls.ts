import { createHmac, timingSafeEqual } from 'node:crypto';
import { ROUTES, toPath } from '@sea/contract/paths';

/**
 * Short-lived signed URLs of a replay's files. The signature is an HMAC-SHA256, with a key derived from the
 * server's JWT secret for this use only, over the session id and the expiry: one signature opens every file of
 * that session's replay folder (the MP4, the HLS playlist and its segments) until it expires. The expiry is
 * rounded up to the next full hour, so a page that asks again within the hour gets the same URLs (a player's
 * source does not change under it) and every link lives between {@link REPLAY_URL_MIN_S} and one hour more.
 */
export const REPLAY_URL_MIN_S = 3 * 60 * 60;
const ROUND_S = 60 * 60;

export type ReplaySignature = { exp: number; sig: string };

export class ReplayUrls {
  readonly #key: Buffer;
  readonly #now: () => number;

  constructor(secret: string, now: () => number = Date.now) {
    this.#key = createHmac('sha256', secret).update('sea:replay-files:v1').digest();
    this.#now = now;
  }

  /** A signature valid for at least {@link REPLAY_URL_MIN_S} seconds. */
  sign(sessionId: number): ReplaySignature {
    const nowS = Math.floor(this.#now() / 1000);
    const exp = Math.ceil((nowS + REPLAY_URL_MIN_S) / ROUND_S) * ROUND_S;
    return { exp, sig: this.#mac(sessionId, exp) };
  }

  /** True when `sig` was made here for this session and `exp` has not passed. */
  verify(sessionId: number, exp: unknown, sig: unknown): boolean {
    if (typeof exp !== 'string' || typeof sig !== 'string' || !/^\d{1,12}$/.test(exp)) return false;
    const expS = Number(exp);
    if (expS * 1000 <= this.#now()) return false;
    const expected = Buffer.from(this.#mac(sessionId, expS));
    const given = Buffer.from(sig);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The query string (`exp=...&sig=...`) that opens a session's files. */
  query(sessionId: number): string {
    const { exp, sig } = this.sign(sessionId);
    return `exp=${exp}&sig=${sig}`;
  }

  /** The signed site-relative URLs of a ready replay: the HLS playlist and the MP4 (download). */
  urls(sessionId: number): { hls_url: string; mp4_url: string } {
    const query = this.query(sessionId);
    return {
      hls_url: `${toPath(ROUTES.replayPlaylist, { sessionId })}?${query}`,
      mp4_url: `${toPath(ROUTES.replayMp4, { sessionId })}?${query}`,
    };
  }

  #mac(sessionId: number, exp: number): string {
    return createHmac('sha256', this.#key).update(`${sessionId}.${exp}`).digest('base64url');
  }
}
