import { createRequire } from 'node:module';
import type * as IoRedis from 'ioredis';
import type { Redis, RedisOptions } from 'ioredis';

const require = createRequire(import.meta.url);
let RedisClient: typeof Redis | undefined;

/**
 * A new ioredis client, the library loaded when the first one is made: only a server with REDIS_URL makes
 * clients, and one without need not hold it (issue 34, light servers; 23 MB imported alone, a few MB of an idle
 * server's resident memory, README). Loaded with `require` (ioredis is CommonJS), so the callers that make
 * their clients in a constructor need not wait for it.
 */
export function newRedis(url: string, options: RedisOptions): Redis {
  RedisClient ??= (require('ioredis') as typeof IoRedis).Redis;
  return new RedisClient(url, options);
}
