// The server under test, in its own process so that its CPU and memory are measured apart from the load.
import { randomUUID } from 'node:crypto';
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
let database: DatabaseConfig = { kind: 'pglite', dir: null };
let drop = async (): Promise<void> => undefined;
if (process.env.BENCH_DATABASE === 'postgres') {
  const created = await createTestDatabase();
  database = { kind: 'postgres', url: created.url };
  drop = created.drop;
}

const app = await buildApp(
  testConfig({
    database,
    redisUrl: process.env.REDIS_URL ?? null,
    // The benchmark measures fan-out: the per-user send limit would only throttle its few publishers.
    chat: { rateLimit: { capacity: 1e9, refillPerSecond: 1e9 }, session: { maxPendingFrames: 1024 } },
  }),
  { logger: false },
);
await app.listen({ host: '127.0.0.1', port: 0 });
const address = app.server.address();
if (address === null || typeof address === 'string') throw new Error('no address');

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
const tokens = await Promise.all(ids.map((id) => app.tokens.signAccess(id)));

const send = (message: unknown): void => {
  process.send?.(message);
};
send({ type: 'ready', url: `ws://127.0.0.1:${address.port}/ws`, classId: room.id, tokens });
process.on('message', (message: { type: string }) => {
  if (message.type === 'usage') {
    const memory = process.memoryUsage();
    send({
      type: 'usage',
      cpu: process.cpuUsage(),
      rss: memory.rss,
      heap: memory.heapUsed,
      at: performance.now(),
    });
  } else if (message.type === 'stop') {
    void app
      .close()
      .then(drop)
      .finally(() => process.exit(0));
  }
});
