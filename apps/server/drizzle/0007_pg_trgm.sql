-- Hand-written: drizzle-kit does not manage extensions. Search (classes/search-condition.ts) matches with
-- ILIKE, which pg_trgm's GIN operator class can answer from an index; PGlite loads the same extension.
CREATE EXTENSION IF NOT EXISTS pg_trgm;
