import { createHmac, timingSafeEqual } from 'node:crypto';
import { ROUTES, toPath } from '@sea/contract/paths';

/**
 * Signed URLs of a replay's files, each for one viewer. The signature is an HMAC-SHA256, with a key derived
 * from the server's JWT secret for this use only, over the session id, the viewer's user id and the expiry:
 * one signature opens every file of that session's replay folder (the MP4, the HLS playlist and its segments)
 * for that viewer until it expires. The expiry is rounded up to the next full hour, so a page that asks again
 * within the hour gets the same URLs (a player's source does not change under it) and every link lives
 * between {@link REPLAY_URL_MIN_S} and one hour more. A signature alone does not open a file: the file routes
 * ask the database on every request whether the viewer may still watch (replay-file-routes.ts), so access
 * that ends (a hidden replay, an unenrolment, a withdrawal) ends for the URLs at once.
 */
export const REPLAY_URL_MIN_S = 3 * 60 * 60;
const ROUND_S = 60 * 60;

export type ReplaySignature = { exp: number; sig: string };

/** The signed URLs of a ready replay, for one viewer: the HLS playlist and the MP4 (download). */
export type ViewerUrls = { urls(sessionId: number): { hls_url: string; mp4_url: string } };

export class ReplayUrls {
  readonly #key: Buffer;
  readonly #now: () => number;

  constructor(secret: string, now: () => number = Date.now) {
    this.#key = createHmac('sha256', secret).update('sea:replay-files:v2').digest();
    this.#now = now;
  }

  /** A signature for `viewer` (a user id) valid for at least {@link REPLAY_URL_MIN_S} seconds. */
  sign(sessionId: number, viewer: string): ReplaySignature {
    const nowS = Math.floor(this.#now() / 1000);
    const exp = Math.ceil((nowS + REPLAY_URL_MIN_S) / ROUND_S) * ROUND_S;
    return { exp, sig: this.#mac(sessionId, viewer, exp) };
  }

  /** True when `sig` was made here for this session and viewer, and `exp` has not passed. */
  verify(sessionId: number, viewer: unknown, exp: unknown, sig: unknown): boolean {
    if (typeof viewer !== 'string' || typeof exp !== 'string' || typeof sig !== 'string') return false;
    if (!/^\d{1,12}$/.test(exp)) return false;
    const expS = Number(exp);
    if (expS * 1000 <= this.#now()) return false;
    const expected = Buffer.from(this.#mac(sessionId, viewer, expS));
    const given = Buffer.from(sig);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /** The query string (`u=...&exp=...&sig=...`) that opens a session's files for `viewer`. */
  query(sessionId: number, viewer: string): string {
    const { exp, sig } = this.sign(sessionId, viewer);
    return `u=${encodeURIComponent(viewer)}&exp=${exp}&sig=${sig}`;
  }

  /** The signed site-relative URLs of ready replays, for `viewer`. */
  forViewer(viewer: string): ViewerUrls {
    return {
      urls: (sessionId) => {
        const query = this.query(sessionId, viewer);
        return {
          hls_url: `${toPath(ROUTES.replayPlaylist, { sessionId })}?${query}`,
          mp4_url: `${toPath(ROUTES.replayMp4, { sessionId })}?${query}`,
        };
      },
    };
  }

  #mac(sessionId: number, viewer: string, exp: number): string {
    // The viewer's length first: no id can run into the expiry.
    return createHmac('sha256', this.#key)
      .update(`${sessionId}.${viewer.length}.${viewer}.${exp}`)
      .digest('base64url');
  }
}
