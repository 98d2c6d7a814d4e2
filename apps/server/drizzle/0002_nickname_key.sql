DROP INDEX "users_nickname_key";--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "nickname_key" text GENERATED ALWAYS AS (btrim(regexp_replace(regexp_replace(normalize("nickname", NFC), '[\u00ad\u034f\u061c\u115f-\u1160\u17b4-\u17b5\u180b-\u180f\u200b-\u200f\u202a-\u202e\u2060-\u206f\u2800\u3164\ufe00-\ufe0f\ufeff\uffa0\ufff0-\ufff8\U0001bca0-\U0001bca3\U0001d173-\U0001d17a\U000e0000-\U000e0fff]', '', 'g'), '[\u0020\u00a0\u1680\u2000-\u200a\u202f\u205f\u3000]+', ' ', 'g'), ' ')) STORED NOT NULL;--> statement-breakpoint
ALTER TABLE "users" ADD COLUMN "nickname_clash" boolean DEFAULT false NOT NULL;--> statement-breakpoint
-- Written by hand: existing active users whose nicknames look alike keep them; all but the oldest are marked so
-- that the unique index can be built, and leave the mark when they next change their nickname.
UPDATE "users" AS "later" SET "nickname_clash" = true
WHERE "later"."deleted_at" IS NULL AND EXISTS (
	SELECT 1 FROM "users" AS "older"
	WHERE "older"."deleted_at" IS NULL AND "older"."nickname_key" = "later"."nickname_key"
		AND ("older"."created_at", "older"."id") < ("later"."created_at", "later"."id")
);--> statement-breakpoint
CREATE UNIQUE INDEX "users_nickname_key" ON "users" USING btree ("nickname_key") WHERE deleted_at is null and not nickname_clash;