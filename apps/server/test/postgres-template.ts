import postgres from 'postgres';
import { openDatabase } from '../src/db/open-database.ts';
import { schemaHash } from './pglite-template.ts';

/** Any number, the same in every test process: who holds it makes the template. */
const TEMPLATE_LOCK = 0x5ea7e;
const PREFIX = 'sea_template_';

let made: Promise<string> | undefined;

/**
 * A migrated (and seeded) PostgreSQL database to copy test databases from, made once per schema version and
 * kept between runs: `create database ... template` copies files, where migrating a fresh database runs every
 * migration again. Templates of older schemas are dropped when a new one is made.
 */
export function postgresTemplate(adminUrl: string): Promise<string> {
  made ??= makeTemplate(adminUrl);
  return made;
}

async function makeTemplate(adminUrl: string): Promise<string> {
  const name = `${PREFIX}${schemaHash()}`;
  const admin = postgres(adminUrl, { max: 1, connect_timeout: 5, onnotice: () => {} });
  try {
    // Parallel test files wait here for the first one to make it.
    await admin`select pg_advisory_lock(${TEMPLATE_LOCK})`;
    const existing = await admin<{ datname: string }[]>`
      select datname from pg_database where datname like ${`${PREFIX}%`}`;
    if (existing.some((row) => row.datname === name)) return name;
    for (const { datname } of existing) {
      // Another checkout on an older schema may be copying it right now: then it stays, for a later run.
      await admin.unsafe(`drop database if exists ${datname}`).catch(() => undefined);
    }
    await admin.unsafe(`create database ${name}`);
    const url = new URL(adminUrl);
    url.pathname = `/${name}`;
    const opened = await openDatabase({ kind: 'postgres', url: url.toString() });
    await opened.close();
    return name;
  } finally {
    await admin`select pg_advisory_unlock(${TEMPLATE_LOCK})`.catch(() => undefined);
    await admin.end({ timeout: 1 });
  }
}
