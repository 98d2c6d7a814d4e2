CREATE TABLE "calendar_feeds" (
	"user_id" text PRIMARY KEY NOT NULL,
	"selector" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "calendar_feeds_selector_unique" UNIQUE("selector")
);
--> statement-breakpoint
ALTER TABLE "replay_watches" ADD COLUMN "watched" jsonb DEFAULT '[]'::jsonb NOT NULL;--> statement-breakpoint
ALTER TABLE "calendar_feeds" ADD CONSTRAINT "calendar_feeds_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
-- Watch time before this migration was a total, not which seconds: it becomes the replay's first seconds, so
-- every total (attendance, CSV) stays what it was.
UPDATE "replay_watches" SET "watched" = jsonb_build_array(jsonb_build_array(0, "watched_ms" / 1000)) WHERE "watched_ms" >= 1000;--> statement-breakpoint
ALTER TABLE "replay_watches" DROP COLUMN "watched_ms";