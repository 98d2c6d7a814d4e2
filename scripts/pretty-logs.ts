import type { Writable } from 'node:stream';

/**
 * Where `npm start` sends its services' log lines when a person watches them in a terminal: pino-pretty, which
 * turns each JSON line into a coloured one (time, level, message, then the other fields) and passes other
 * lines through as they are. Null when pino-pretty is not installed (the lines then stay JSON).
 */
export async function prettyLogs(colorize = true): Promise<Writable | null> {
  try {
    const { default: pinoPretty } = await import('pino-pretty');
    return pinoPretty({
      colorize,
      translateTime: 'SYS:HH:MM:ss.l',
      ignore: 'pid,hostname',
      destination: process.stdout,
      sync: true,
    });
  } catch {
    return null; // a production install without dev dependencies: JSON it is
  }
}
