import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.ts';
import type { Database } from '../db/database.ts';

declare module 'fastify' {
  interface FastifyInstance {
    /** The configuration the app was built with. */
    config: Config;
    /** The database (PGlite or PostgreSQL). */
    db: Database;
  }
}

/** Makes the configuration and the database available to every module as `app.config` and `app.db`. */
export function registerContext(app: FastifyInstance, config: Config, db: Database): void {
  app.decorate('config', config);
  app.decorate('db', db);
}
