import { createHmac, randomBytes, timingSafeEqual } from 'node:crypto';

/** Random bytes of a feed's selector (its row's key), and the length of its base64url text. */
const SELECTOR_BYTES = 18;
const SELECTOR_CHARS = 24;

/**
 * The secret tokens of calendar feeds: a random selector (what the database keeps) followed by an HMAC-SHA256
 * of it under a key derived from the server's secret, both base64url (24 + 43 characters). The feed's URL can
 * be shown again from the selector, the database alone does not give it away, and a token is checked in
 * constant time before its selector is looked up.
 */
export class CalendarFeeds {
  readonly #key: Buffer;

  constructor(secret: string) {
    this.#key = createHmac('sha256', secret).update('sea:calendar-feed:v1').digest();
  }

  /** A new random selector (a new feed, or a reset). */
  static newSelector(): string {
    return randomBytes(SELECTOR_BYTES).toString('base64url');
  }

  /** The token of the URL of the feed with this selector. */
  tokenOf(selector: string): string {
    return selector + this.#mac(selector);
  }

  /** The selector a token names, or null when the token is not one of ours (any length, any text). */
  selectorOf(token: string): string | null {
    const selector = token.slice(0, SELECTOR_CHARS);
    const given = Buffer.from(token.slice(SELECTOR_CHARS));
    const expected = Buffer.from(this.#mac(selector));
    return given.length === expected.length && timingSafeEqual(given, expected) ? selector : null;
  }

  #mac(selector: string): string {
    return createHmac('sha256', this.#key).update(selector).digest('base64url');
  }
}
