-- Hand-written around drizzle-kit's table and index: typos corrected against the words of the classes' search
-- sources (docs/api.md, "Search") instead of judged against every class. search_terms holds each word of a
-- search source (title, teacher's nickname, category: lower case, NFKC, split at spaces; words of digits only
-- and single characters left out, as a typo needs two characters) with its jamo; the trigger that writes the
-- search document adds its class's words. The jamo column of classes, which only typos read, goes.
CREATE TABLE "search_terms" (
	"term" text PRIMARY KEY NOT NULL,
	"jamo" text NOT NULL
);
--> statement-breakpoint
CREATE FUNCTION search_source_terms(source text) RETURNS SETOF text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT DISTINCT word FROM regexp_split_to_table(lower(normalize(source, NFKC)), '[[:space:]]+') AS word
  WHERE char_length(word) >= 2 AND word !~ '^[0-9]+$'
$$;
--> statement-breakpoint
CREATE OR REPLACE FUNCTION classes_search_document() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_source := NEW.name
    || chr(10) || coalesce((SELECT nickname FROM users WHERE id = NEW.teacher_id), '')
    || chr(10) || coalesce((SELECT name FROM categories WHERE id = NEW.category_id), '');
  NEW.search_text := search_fold(NEW.search_source || chr(10) || NEW.description);
  NEW.search_chars := search_chars(NEW.search_text);
  NEW.search_initials := search_initials(search_fold(NEW.search_source));
  INSERT INTO search_terms (term, jamo)
    SELECT term, search_jamo(term) FROM search_source_terms(NEW.search_source) AS term
    ON CONFLICT (term) DO NOTHING;
  RETURN NEW;
END
$$;--> statement-breakpoint
DROP INDEX "classes_search_words_idx";--> statement-breakpoint
ALTER TABLE "classes" DROP COLUMN "search_words";--> statement-breakpoint
-- Backfill: the words of every class's source as it stands.
INSERT INTO search_terms (term, jamo)
  SELECT term, search_jamo(term)
  FROM (SELECT DISTINCT search_source_terms(search_source) AS term FROM classes WHERE deleted_at IS NULL) AS terms
  ON CONFLICT (term) DO NOTHING;--> statement-breakpoint
CREATE INDEX "search_terms_jamo_idx" ON "search_terms" USING gin ("jamo" gin_trgm_ops);
