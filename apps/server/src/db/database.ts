import type { PgDatabase, PgQueryResultHKT } from 'drizzle-orm/pg-core';
import type * as schema from './schema.ts';

/** The one database type every domain module uses, whichever driver (PGlite or postgres.js) is behind it. */
export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;

/** A transaction or the database itself: functions that may run inside a caller's transaction take this. */
export type Executor = Parameters<Parameters<Database['transaction']>[0]>[0] | Database;
