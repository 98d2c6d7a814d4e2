CREATE TABLE "media_nodes" (
	"id" text PRIMARY KEY NOT NULL,
	"url" text NOT NULL,
	"boot" text NOT NULL,
	"booted_at" timestamp with time zone NOT NULL,
	"seq" integer NOT NULL,
	"last_seen_at" timestamp with time zone NOT NULL
);
