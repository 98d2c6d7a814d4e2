CREATE TABLE "attendance" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"joined_at" timestamp with time zone NOT NULL,
	"left_at" timestamp with time zone
);
--> statement-breakpoint
CREATE TABLE "replay_watches" (
	"session_id" integer NOT NULL,
	"user_id" text NOT NULL,
	"watched_ms" integer DEFAULT 0 NOT NULL,
	"position_s" double precision DEFAULT 0 NOT NULL,
	"playing" boolean DEFAULT false NOT NULL,
	"last_beat_at" timestamp with time zone NOT NULL,
	CONSTRAINT "replay_watches_session_user_key" UNIQUE("session_id","user_id")
);
--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "attendance" ADD CONSTRAINT "attendance_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replay_watches" ADD CONSTRAINT "replay_watches_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "replay_watches" ADD CONSTRAINT "replay_watches_user_id_users_id_fk" FOREIGN KEY ("user_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "attendance_session_idx" ON "attendance" USING btree ("session_id","user_id");--> statement-breakpoint
CREATE UNIQUE INDEX "attendance_open_key" ON "attendance" USING btree ("session_id","user_id") WHERE left_at is null;