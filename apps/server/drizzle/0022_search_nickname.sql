-- The nickname folded as the search folds it (search_fold, migration 0020), stored: the search box's instructor
-- suggestions compare it instead of folding every user's nickname per request. Its trigram index replaces the
-- one on the raw nickname, which no query used since the search document.
DROP INDEX "users_nickname_search_idx";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "search_nickname" text GENERATED ALWAYS AS (search_fold(nickname)) STORED NOT NULL;--> statement-breakpoint
CREATE INDEX "users_search_nickname_idx" ON "users" USING gin ("search_nickname" gin_trgm_ops) WHERE deleted_at is null;