CREATE TABLE "live_sessions" (
	"id" serial PRIMARY KEY NOT NULL,
	"class_id" integer NOT NULL,
	"media_key" text NOT NULL,
	"node_id" text NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone,
	"recording_state" text DEFAULT 'none' NOT NULL,
	"recording_progress" integer DEFAULT 0 NOT NULL,
	"recording_error" text,
	"replay_duration_ms" integer,
	"title" text,
	"hidden" boolean DEFAULT false NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL,
	CONSTRAINT "live_sessions_media_key_unique" UNIQUE("media_key")
);
--> statement-breakpoint
ALTER TABLE "live_sessions" ADD CONSTRAINT "live_sessions_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "live_sessions_class_idx" ON "live_sessions" USING btree ("class_id","started_at" DESC NULLS FIRST);--> statement-breakpoint
CREATE INDEX "live_sessions_open_idx" ON "live_sessions" USING btree ("node_id") WHERE ended_at is null;