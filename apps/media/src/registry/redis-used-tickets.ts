import { Redis } from 'ioredis';
import { LiveError } from '../live-error.ts';
import type { TicketMemory } from '../ticket.ts';

/** Key prefix of used tickets. */
export const USED_TICKET_PREFIX = 'sea:used-ticket:';

/**
 * The used live tickets of every media node, in Redis (REDIS_URL): a ticket is recorded with SET NX until it
 * expires, so it opens one connection on one node, whichever node it is shown to. While Redis cannot be reached
 * a ticket is refused (asking for a fresh one does not help then, but letting a ticket in twice is worse).
 */
export class RedisUsedTickets implements TicketMemory {
  private readonly redis: Redis;
  private readonly prefix: string;

  constructor(url: string, prefix = USED_TICKET_PREFIX) {
    this.prefix = prefix;
    this.redis = new Redis(url, { maxRetriesPerRequest: 1 });
    // Reported through the refused tickets; the connection is retried by ioredis.
    this.redis.on('error', () => undefined);
  }

  async use(jti: string, expiresAtMs: number, now = Date.now()): Promise<boolean> {
    const ttlMs = Math.max(1, Math.ceil(expiresAtMs - now));
    try {
      return (await this.redis.set(`${this.prefix}${jti}`, '1', 'PX', ttlMs, 'NX')) === 'OK';
    } catch {
      throw new LiveError('unauthorized', '입장권을 확인하지 못했어요. 잠시 후 다시 입장해 주세요.');
    }
  }

  close(): void {
    this.redis.disconnect();
  }
}
