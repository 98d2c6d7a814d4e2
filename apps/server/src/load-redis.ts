import { createRequire } from 'node:module';
import type * as IoRedis from 'ioredis';
import type { Redis, RedisOptions } from 'ioredis';

const require = createRequire(import.meta.url);
let RedisClient: typeof Redis | undefined;

/**
 * A new ioredis client, the library loaded when the first one is made: importing it costs a server some 25 MB of
 * memory, and only a server with REDIS_URL makes clients (issue 34, light servers). Loaded with `require`
 * (ioredis is CommonJS), so the callers that make their clients in a constructor need not wait for it.
 */
export function newRedis(url: string, options: RedisOptions): Redis {
  RedisClient ??= (require('ioredis') as typeof IoRedis).Redis;
  return new RedisClient(url, options);
}
