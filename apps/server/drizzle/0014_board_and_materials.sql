CREATE TABLE "board_stages" (
	"id" serial PRIMARY KEY NOT NULL,
	"session_id" integer NOT NULL,
	"material_id" integer,
	"page" integer,
	"at" timestamp with time zone NOT NULL,
	"title" text
);
--> statement-breakpoint
CREATE TABLE "board_states" (
	"session_id" integer PRIMARY KEY NOT NULL,
	"material_id" integer,
	"page" integer,
	"blank_pages" integer DEFAULT 0 NOT NULL,
	"writer_id" text
);
--> statement-breakpoint
CREATE TABLE "board_strokes" (
	"id" bigserial PRIMARY KEY NOT NULL,
	"session_id" integer NOT NULL,
	"material_id" integer NOT NULL,
	"page" integer NOT NULL,
	"stroke_id" text NOT NULL,
	"user_id" text NOT NULL,
	"tool" text NOT NULL,
	"color" text NOT NULL,
	"width" double precision NOT NULL,
	"text" text,
	"points" jsonb NOT NULL,
	"done" boolean DEFAULT false NOT NULL,
	"started_at" timestamp with time zone NOT NULL,
	"ended_at" timestamp with time zone NOT NULL,
	"erased_at" timestamp with time zone,
	CONSTRAINT "board_strokes_stroke_key" UNIQUE("session_id","material_id","page","stroke_id")
);
--> statement-breakpoint
CREATE TABLE "material_pages" (
	"material_id" integer NOT NULL,
	"number" integer NOT NULL,
	"title" text,
	"text" text DEFAULT '' NOT NULL,
	"width" integer NOT NULL,
	"height" integer NOT NULL,
	CONSTRAINT "material_pages_material_id_number_pk" PRIMARY KEY("material_id","number")
);
--> statement-breakpoint
CREATE TABLE "materials" (
	"id" serial PRIMARY KEY NOT NULL,
	"class_id" integer NOT NULL,
	"name" text NOT NULL,
	"kind" text NOT NULL,
	"state" text DEFAULT 'converting' NOT NULL,
	"progress" integer DEFAULT 0 NOT NULL,
	"pages" integer DEFAULT 0 NOT NULL,
	"downloadable" boolean DEFAULT false NOT NULL,
	"error" text,
	"key" text NOT NULL,
	"created_at" timestamp with time zone DEFAULT now() NOT NULL
);
--> statement-breakpoint
ALTER TABLE "board_stages" ADD CONSTRAINT "board_stages_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_states" ADD CONSTRAINT "board_states_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_states" ADD CONSTRAINT "board_states_writer_id_users_id_fk" FOREIGN KEY ("writer_id") REFERENCES "public"."users"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "board_strokes" ADD CONSTRAINT "board_strokes_session_id_live_sessions_id_fk" FOREIGN KEY ("session_id") REFERENCES "public"."live_sessions"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "material_pages" ADD CONSTRAINT "material_pages_material_id_materials_id_fk" FOREIGN KEY ("material_id") REFERENCES "public"."materials"("id") ON DELETE cascade ON UPDATE no action;--> statement-breakpoint
ALTER TABLE "materials" ADD CONSTRAINT "materials_class_id_classes_id_fk" FOREIGN KEY ("class_id") REFERENCES "public"."classes"("id") ON DELETE no action ON UPDATE no action;--> statement-breakpoint
CREATE INDEX "board_stages_session_idx" ON "board_stages" USING btree ("session_id","id");--> statement-breakpoint
CREATE INDEX "materials_class_idx" ON "materials" USING btree ("class_id","id" DESC NULLS LAST);