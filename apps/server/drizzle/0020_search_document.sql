-- Hand-written around drizzle-kit's columns and indexes: the search document of a class (docs/api.md,
-- "Search"). Functions first, then the triggers that write the document (a class's title, description,
-- teacher or category changed, a nickname or category renamed), then the backfill.
-- search_fold: NFKC, lower case, spaces removed (newlines kept: they separate the document's parts).
CREATE FUNCTION search_fold(source text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT regexp_replace(lower(normalize(source, NFKC)), '[ \t\r]+', '', 'g')
$$;
--> statement-breakpoint
CREATE FUNCTION search_jamo(source text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT translate(
    replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
    replace(replace(replace(replace(replace(replace(replace(replace(replace(replace(
    coalesce(string_agg(CASE WHEN code BETWEEN 44032 AND 55203 THEN
      substr('ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ', (code - 44032) / 588 + 1, 1)
      || substr('ㅏㅐㅑㅒㅓㅔㅕㅖㅗㅘㅙㅚㅛㅜㅝㅞㅟㅠㅡㅢㅣ', (code - 44032) % 588 / 28 + 1, 1)
      || substr('ㄱㄲㄳㄴㄵㄶㄷㄹㄺㄻㄼㄽㄾㄿㅀㅁㅂㅄㅅㅆㅇㅈㅊㅋㅌㅍㅎ', (code - 44032) % 28, 1)
    ELSE chr(code) END, '' ORDER BY position), ''),
    'ㄲ', 'ㄱㄱ'), 'ㄸ', 'ㄷㄷ'), 'ㅃ', 'ㅂㅂ'), 'ㅆ', 'ㅅㅅ'), 'ㅉ', 'ㅈㅈ'), 'ㄳ', 'ㄱㅅ'), 'ㄵ', 'ㄴㅈ'),
    'ㄶ', 'ㄴㅎ'), 'ㄺ', 'ㄹㄱ'), 'ㄻ', 'ㄹㅁ'), 'ㄼ', 'ㄹㅂ'), 'ㄽ', 'ㄹㅅ'), 'ㄾ', 'ㄹㅌ'), 'ㄿ', 'ㄹㅍ'),
    'ㅀ', 'ㄹㅎ'), 'ㅄ', 'ㅂㅅ'), 'ㅘ', 'ㅗㅏ'), 'ㅙ', 'ㅗㅐ'), 'ㅚ', 'ㅗㅣ'), 'ㅝ', 'ㅜㅓ'), 'ㅞ', 'ㅜㅐ'),
    'ㅟ', 'ㅜㅣ'), 'ㅢ', 'ㅡㅣ'),
    'ㅔㅖ', 'ㅐㅒ')
  FROM (SELECT position, ascii(substr(source, position, 1)) AS code
        FROM generate_series(1, length(source)) AS position) AS chars
$$;
--> statement-breakpoint
CREATE FUNCTION search_initials(source text) RETURNS text LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(string_agg(CASE WHEN code BETWEEN 44032 AND 55203 THEN
      substr('ㄱㄲㄴㄷㄸㄹㅁㅂㅃㅅㅆㅇㅈㅉㅊㅋㅌㅍㅎ', (code - 44032) / 588 + 1, 1)
    ELSE chr(code) END, '' ORDER BY position), '')
  FROM (SELECT position, ascii(substr(source, position, 1)) AS code
        FROM generate_series(1, length(source)) AS position) AS chars
$$;
--> statement-breakpoint
CREATE FUNCTION search_chars(source text) RETURNS text[] LANGUAGE sql IMMUTABLE PARALLEL SAFE AS $$
  SELECT coalesce(array_agg(DISTINCT ch), '{}') FROM regexp_split_to_table(source, '') AS ch
$$;
--> statement-breakpoint
DROP INDEX "classes_search_idx";--> statement-breakpoint
ALTER TABLE "classes" ADD COLUMN "search_source" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "classes" ADD COLUMN "search_text" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "classes" ADD COLUMN "search_chars" text[] DEFAULT '{}' NOT NULL;--> statement-breakpoint
ALTER TABLE "classes" ADD COLUMN "search_words" text DEFAULT '' NOT NULL;--> statement-breakpoint
ALTER TABLE "classes" ADD COLUMN "search_initials" text DEFAULT '' NOT NULL;--> statement-breakpoint
CREATE FUNCTION classes_search_document() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  NEW.search_source := NEW.name
    || chr(10) || coalesce((SELECT nickname FROM users WHERE id = NEW.teacher_id), '')
    || chr(10) || coalesce((SELECT name FROM categories WHERE id = NEW.category_id), '');
  NEW.search_text := search_fold(NEW.search_source || chr(10) || NEW.description);
  NEW.search_chars := search_chars(NEW.search_text);
  NEW.search_words := search_jamo(lower(normalize(NEW.search_source, NFKC)));
  NEW.search_initials := search_initials(search_fold(NEW.search_source));
  RETURN NEW;
END
$$;--> statement-breakpoint
CREATE TRIGGER classes_search_document BEFORE INSERT OR UPDATE OF name, description, teacher_id, category_id ON classes
  FOR EACH ROW EXECUTE FUNCTION classes_search_document();
--> statement-breakpoint
CREATE FUNCTION users_search_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE classes SET name = name WHERE teacher_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER users_search_source AFTER UPDATE OF nickname ON users
  FOR EACH ROW WHEN (OLD.nickname IS DISTINCT FROM NEW.nickname) EXECUTE FUNCTION users_search_source();
--> statement-breakpoint
CREATE FUNCTION categories_search_source() RETURNS trigger LANGUAGE plpgsql AS $$
BEGIN
  UPDATE classes SET name = name WHERE category_id = NEW.id;
  RETURN NULL;
END
$$;--> statement-breakpoint
CREATE TRIGGER categories_search_source AFTER UPDATE OF name ON categories
  FOR EACH ROW WHEN (OLD.name IS DISTINCT FROM NEW.name) EXECUTE FUNCTION categories_search_source();--> statement-breakpoint
-- Backfill: the BEFORE UPDATE trigger writes every class's search document.
UPDATE classes SET name = name;--> statement-breakpoint
CREATE INDEX "classes_search_text_idx" ON "classes" USING gin ("search_text" gin_trgm_ops) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "classes_search_chars_idx" ON "classes" USING gin ("search_chars") WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "classes_search_words_idx" ON "classes" USING gin ("search_words" gin_trgm_ops) WHERE deleted_at is null;--> statement-breakpoint
CREATE INDEX "classes_search_initials_idx" ON "classes" USING gin ("search_initials" gin_trgm_ops) WHERE deleted_at is null;