import { defineConfig } from 'drizzle-kit';

// `npm run db:generate -w apps/server` writes a new migration after a schema change.
export default defineConfig({
  dialect: 'postgresql',
  schema: './src/db/schema.ts',
  out: './drizzle',
});
