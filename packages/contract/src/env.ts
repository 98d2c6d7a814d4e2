import { z } from 'zod';
import { IceServerSchema } from './live-ticket.ts';

/**
 * How the API server and the media service read their environments. Both read some of the same variables
 * (MEDIA_SECRET, ICE_SERVERS, DATA_DIR) and must agree on them: a secret one accepts and the other refuses
 * would refuse every live ticket. Both report every problem at once, in the same form.
 */

/** An optional variable: trimmed, and blank reads as unset. */
export const optionalEnv = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v.trim()));

/**
 * Whether a NODE_ENV value means production: trimmed and in any case (`Production`, ` PRODUCTION `), so a
 * production rule is never skipped by the way the value was typed. The one reading of NODE_ENV.
 */
export function isProduction(nodeEnv: string | undefined): boolean {
  return nodeEnv?.trim().toLowerCase() === 'production';
}

/** NODE_ENV read as {@link isProduction}: true in production. */
export const productionEnv = optionalEnv.transform(isProduction);

/** The shortest secret either service accepts (MEDIA_SECRET, JWT_SECRET), in characters. */
export const MIN_SECRET_LENGTH = 32;

/** An optional secret of at least {@link MIN_SECRET_LENGTH} characters. */
export const secretEnv = optionalEnv.pipe(
  z.string().min(MIN_SECRET_LENGTH, `must be at least ${MIN_SECRET_LENGTH} characters`).optional(),
);

/** ICE_SERVERS: a JSON array of `{urls, username?, credential?}` (TURN for the clients); unset is none. */
export const iceServersEnv = optionalEnv.transform((v, ctx) => {
  if (v === undefined) return [];
  try {
    const parsed = z.array(IceServerSchema).safeParse(JSON.parse(v));
    if (parsed.success) return parsed.data;
  } catch {
    // reported below as one problem
  }
  ctx.addIssue({ code: 'custom', message: 'must be a JSON array of {urls, username?, credential?}' });
  return z.NEVER;
});

/**
 * METRICS_ALLOW: who besides loopback may read a service's `/metrics` (a Prometheus server elsewhere), as a
 * comma-separated list of addresses and CIDRs (`10.0.0.5,192.168.0.0/24,fd00::/8`); unset is nobody else.
 */
export const metricsAllowEnv = optionalEnv.transform((v, ctx): string[] => {
  if (v === undefined) return [];
  const entries = v.split(',').map((entry) => entry.trim());
  const entry = z.union([z.ipv4(), z.ipv6(), z.cidrv4(), z.cidrv6()]);
  if (entries.every((e) => entry.safeParse(e).success)) return entries;
  ctx.addIssue({ code: 'custom', message: 'must be a comma-separated list of IP addresses and CIDRs' });
  return z.NEVER;
});

/** Raised when the environment is invalid; `problems` lists every problem, one line each. */
export class ConfigError extends Error {
  readonly problems: string[];
  constructor(problems: string[]) {
    super(`Invalid configuration:\n${problems.map((p) => `  - ${p}`).join('\n')}`);
    this.problems = problems;
  }
}

/** Parses an environment with `schema`; throws {@link ConfigError} listing every problem (`NAME: message`). */
export function parseEnv<S extends z.ZodType>(
  schema: S,
  env: Record<string, string | undefined>,
): z.output<S> {
  const parsed = schema.safeParse(env);
  if (!parsed.success) {
    throw new ConfigError(parsed.error.issues.map((i) => `${i.path.join('.')}: ${i.message}`));
  }
  return parsed.data;
}
