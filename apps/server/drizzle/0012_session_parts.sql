CREATE TABLE "session_parts" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" integer NOT NULL,
	"media_key" text NOT NULL,
	"node_id" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	CONSTRAINT "session_parts_media_key_unique" UNIQUE("media_key")
);
--> statement-breakpoint
ALTER TABLE "session_parts" ADD CONSTRAINT "session_parts_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "session_parts_session_idx" ON "session_parts" USING btree ("session_id");