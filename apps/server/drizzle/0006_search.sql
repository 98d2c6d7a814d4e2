ALTER TABLE "classes" ADD COLUMN "review_count" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
ALTER TABLE "classes" ADD COLUMN "rating_total" integer DEFAULT 0 NOT NULL;--> statement-breakpoint
CREATE INDEX "classes_search_idx" ON "classes" USING gin (("name" || ' ' || "description") gin_trgm_ops) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "classes_rating_idx" ON "classes" USING btree (("rating_total"::float8 / nullif("review_count", 0)) desc nulls last,"created_at" DESC NULLS FIRST,"id" DESC NULLS FIRST) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "users_nickname_search_idx" ON "users" USING gin ("nickname" gin_trgm_ops);