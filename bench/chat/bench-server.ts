// The server under test, in its own process so that its CPU and memory are measured apart from the load.
import { randomUUID } from 'node:crypto';
import { monitorEventLoopDelay } from 'node:perf_hooks';
import { buildApp } from '../../apps/server/src/app.ts';
import type { DatabaseConfig } from '../../apps/server/src/config.ts';
import {
  accounts,
  categories,
  classes,
  enrolments,
  liveSessions,
  users,
} from '../../apps/server/src/db/schema.ts';
import { createTestDatabase, testConfig } from '../../apps/server/test/helper.ts';

const userCount = Number(process.env.BENCH_USERS ?? '0');
// A further instance of a benchmark with several API servers (BENCH_JOIN_DATABASE_URL): it serves the first
// one's PostgreSQL database and Redis with the same JWT secret (BENCH_JWT_SECRET), and seeds nothing.
const joining = process.env.BENCH_JOIN_DATABASE_URL;
let database: DatabaseConfig = { kind: 'pglite', dir: null };
let drop = async (): Promise<void> => undefined;
if (joining) database = { kind: 'postgres', url: joining };
else if (process.env.BENCH_DATABASE === 'postgres') {
  const created = await createTestDatabase();
  database = { kind: 'postgres', url: created.url };
  drop = created.drop;
}

const app = await buildApp(
  testConfig({
    database,
    redisUrl: process.env.REDIS_URL ?? null,
    ...(process.env.BENCH_JWT_SECRET ? { jwtSecret: process.env.BENCH_JWT_SECRET } : {}),
    // The benchmark measures fan-out: the per-user send limit would only throttle its few publishers.
    chat: { rateLimit: { capacity: 1e9, refillPerSecond: 1e9 }, session: { maxPendingFrames: 1024 } },
  }),
  { logger: false },
);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('no address');

const send = (message: unknown): void => {
  process.send?.(message);
};
/** The benchmark's users, their class (live with BENCH_LIVE=1) and its enrolments; their access tokens. */
async function seed(): Promise<{ classId: number; tokens: string[] }> {
  const ids = Array.from({ length: userCount }, () => randomUUID());
  await app.db
    .insert(accounts)
    .values(ids.map((id) => ({ id, provider: 'dev', providerUserId: `bench-${id}` })));
  await app.db.insert(users).values(ids.map((id, i) => ({ id, nickname: `bench${i}` })));
  const [category] = await app.db.select({ id: categories.id }).from(categories).limit(1);
  const [teacher, ...students] = ids;
  if (!category || !teacher) throw new Error('nothing to benchmark');
  const [room] = await app.db
    .insert(classes)
    .values({ teacherId: teacher, categoryId: category.id, name: '벤치마크', object: '-', description: '-' })
    .returning({ id: classes.id });
  if (!room) throw new Error('class not created');
  if (students.length > 0) {
    await app.db.insert(enrolments).values(students.map((userId) => ({ classId: room.id, userId })));
  }
  // The classroom benchmark needs the class live (questions and polls are only taken then).
  if (process.env.BENCH_LIVE === '1') {
    await app.db
      .insert(liveSessions)
      .values({ classId: room.id, mediaKey: randomUUID(), nodeId: 'bench', startedAt: new Date() });
  }
  return { classId: room.id, tokens: await Promise.all(ids.map((id) => app.tokens.signAccess(id))) };
}

const url = `ws://127.0.0.1:${address.port}/ws`;
if (joining) send({ type: 'ready', url });
else {
  const { classId, tokens } = await seed();
  send({
    type: 'ready',
    url,
    classId,
    tokens,
    databaseUrl: database.kind === 'postgres' ? database.url : null,
  });
}
// How late the event loop ran its timers since the previous `usage` (a wait every message shares).
const loopDelay = monitorEventLoopDelay({ resolution: 10 });
loopDelay.enable();
process.on('message', (message: { type: string; gc?: boolean }) => {
  if (message.type === 'usage') {
    // Asked with `gc` (the process started with --expose-gc): memory measured after a full collection.
    if (message.gc) (globalThis as { gc?: () => void }).gc?.();
    const memory = process.memoryUsage();
    send({
      type: 'usage',
      cpu: process.cpuUsage(),
      rss: memory.rss,
      heap: memory.heapUsed,
      at: performance.now(),
      loopDelayMaxMs: loopDelay.max / 1e6,
    });
    loopDelay.reset();
  } else if (message.type === 'stop') {
    void app
      .close()
      .then(drop)
      .finally(() => process.exit(0));
  }
});
