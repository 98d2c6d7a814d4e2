import { buildApp } from './app.ts';
import { ConfigError, loadConfig } from './config.ts';
import { LogDestination } from './log-destination.ts';

/** The longest a stop may take: a stuck connection or a hanging database must not keep the process alive. */
const SHUTDOWN_TIMEOUT_MS = 10_000;
/** How long the last log lines may take to reach a slow reader of stdout before the process exits. */
const LOG_FLUSH_MS = 1_000;

let config;
try {
  config = loadConfig();
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  process.stderr.write(`${error.message}\n`);
  process.exit(1);
}

const logs = new LogDestination();
const app = await buildApp(config, { logDestination: logs });
await app.listen({ host: config.host, port: config.port });

let closing = false;
function stop(reason: string): void {
  if (closing) return;
  closing = true;
  app.log.info({ reason }, 'shutting down');
  setTimeout(() => process.exit(1), SHUTDOWN_TIMEOUT_MS).unref();
  app.close().then(
    async () => {
      await logs.flush(LOG_FLUSH_MS);
      process.exit(0);
    },
    async (error: unknown) => {
      app.log.error({ err: error }, 'shutdown failed');
      await logs.flush(LOG_FLUSH_MS);
      process.exit(1);
    },
  );
}
for (const signal of ['SIGTERM', 'SIGINT'] as const) process.on(signal, () => stop(signal));
// Started by `npm start` with an IPC channel: when that parent is gone (even killed), stop too, so that
// nothing is left running that nobody can stop.
if (process.channel) {
  process.channel.unref();
  process.once('disconnect', () => stop('parent process gone'));
}
