import { sql } from 'drizzle-orm';
import {
  bigserial,
  boolean,
  check,
  doublePrecision,
  date,
  index,
  integer,
  jsonb,
  pgTable,
  primaryKey,
  serial,
  text,
  time,
  timestamp,
  unique,
  uniqueIndex,
} from 'drizzle-orm/pg-core';
import { nicknameKeyOf, nicknameSkeletonOf } from './nickname-key.ts';

const createdAt = () => timestamp('created_at', { withTimezone: true }).notNull().defaultNow();

/** A login identity (Kakao or dev). Tokens' `sub` is `accounts.id`; a user row exists only after sign-up. */
export const accounts = pgTable(
  'accounts',
  {
    id: text('id').primaryKey(),
    provider: text('provider').notNull(),
    providerUserId: text('provider_user_id').notNull(),
    createdAt: createdAt(),
  },
  (t) => [unique('accounts_provider_user_key').on(t.provider, t.providerUserId)],
);

/** A registered person. Withdrawal sets `deleted_at`; signing up again revives the same row. */
export const users = pgTable(
  'users',
  {
    id: text('id')
      .primaryKey()
      .references(() => accounts.id),
    nickname: text('nickname').notNull(),
    /** What the nickname shows (see nickname-key.ts), computed by the database itself on every write. */
    nicknameKey: text('nickname_key')
      .notNull()
      .generatedAlwaysAs(nicknameKeyOf(sql.raw('"nickname"'))),
    /**
     * What the nickname looks like (the UTS #39 skeleton of the key, see nickname-skeleton.ts): 'аdmin' and
     * 'ａｄｍｉｎ' are 'admin'. It carries the unique index.
     */
    nicknameSkeleton: text('nickname_skeleton')
      .notNull()
      .generatedAlwaysAs(nicknameSkeletonOf(sql.raw('"nickname"'))),
    /**
     * True for a user whose nickname already looked like an older user's when nicknames began to be compared
     * by what they show: left out of the unique index (migrating keeps both rows as they were) until the
     * nickname changes.
     */
    nicknameClash: boolean('nickname_clash').notNull().default(false),
    email: text('email'),
    /** Storage key of the avatar, or null. */
    profileImage: text('profile_image'),
    /** What the instructor page says about this user (written on the profile page), or null. */
    introduction: text('introduction'),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * The nickname folded as the search folds it (`search_fold`, migration 0020): the search box's instructor
     * suggestions compare it without folding every user's nickname again (classes/suggest-search.ts).
     */
    searchNickname: text('search_nickname')
      .notNull()
      .generatedAlwaysAs(sql`search_fold(nickname)`),
  },
  (t) => [
    uniqueIndex('users_nickname_key')
      .on(t.nicknameSkeleton)
      .where(sql`deleted_at is null and not nickname_clash`),
    uniqueIndex('users_email_key')
      .on(sql`lower(email)`)
      .where(sql`deleted_at is null and email is not null`),
    // Instructors suggested for words of three characters or more (a shorter one has no trigram).
    index('users_search_nickname_idx')
      .using('gin', sql`${t.searchNickname} gin_trgm_ops`)
      .where(sql`deleted_at is null`),
  ],
);

/**
 * The words of every class's search source (title, teacher's nickname, category; lower case, NFKC), written by
 * the trigger `classes_search_document` (migration 0023), never removed: a typo is corrected against these
 * few thousand words (their jamo close to the typed word's), then searched for as typed
 * (classes/search-terms.ts). A word no class holds any more finds nothing, as any word would.
 */
export const searchTerms = pgTable(
  'search_terms',
  {
    term: text('term').primaryKey(),
    /** `search_jamo(term)`: syllables split into jamo, ㅔ folded into ㅐ (migration 0020). */
    jamo: text('jamo').notNull(),
  },
  (t) => [index('search_terms_jamo_idx').using('gin', sql`${t.jamo} gin_trgm_ops`)],
);

export const categories = pgTable('categories', {
  id: integer('id').primaryKey(),
  name: text('name').notNull().unique(),
});

export const classes = pgTable(
  'classes',
  {
    id: serial('id').primaryKey(),
    teacherId: text('teacher_id')
      .notNull()
      .references(() => users.id),
    categoryId: integer('category_id')
      .notNull()
      .references(() => categories.id),
    name: text('name').notNull(),
    object: text('object').notNull(),
    description: text('description').notNull(),
    instructorInfo: text('instructor_info'),
    prerequisite: text('prerequisite'),
    announcement: text('announcement'),
    /** Storage key of the banner, or null. */
    bannerImage: text('banner_image'),
    isActive: boolean('is_active').notNull().default(false),
    /** Kept exact in the same transaction as every enrolment change. */
    studentCount: integer('student_count').notNull().default(0),
    /** Number of reviews and the sum of their stars, kept exact in the same transaction as every review change. */
    reviewCount: integer('review_count').notNull().default(0),
    ratingTotal: integer('rating_total').notNull().default(0),
    createdAt: createdAt(),
    deletedAt: timestamp('deleted_at', { withTimezone: true }),
    /**
     * The search document (docs/api.md, "Search"). `search_source`: title, teacher's nickname and category name,
     * one a line. All four are written by the trigger `classes_search_document` (migration 0020) when the title,
     * description, teacher or category changes (and on a nickname or category rename), never by the
     * application: not generated columns, which PostgreSQL would recompute on every update of the row (each
     * enrolment's student count).
     */
    searchSource: text('search_source').notNull().default(''),
    /** The source and the description folded (NFKC, lower case, no spaces): exact contains, no spaces needed. */
    searchText: text('search_text').notNull().default(''),
    /** The distinct characters of `search_text`: finds words too short for a trigram ('바', '수채'). */
    searchChars: text('search_chars')
      .array()
      .notNull()
      .default(sql`'{}'`),
    /** The folded source's initial consonants (초성: 'ㅌㅇㅅ' for 타입스크립트). */
    searchInitials: text('search_initials').notNull().default(''),
  },
  (t) => [
    index('classes_newest_idx')
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at is null`),
    index('classes_live_idx')
      .on(t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at is null and is_active`),
    index('classes_teacher_idx')
      .on(t.teacherId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at is null`),
    index('classes_category_idx')
      .on(t.categoryId, t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at is null`),
    index('classes_topten_idx')
      .on(t.studentCount.desc().nullsFirst(), t.createdAt.desc().nullsFirst(), t.id.desc().nullsFirst())
      .where(sql`deleted_at is null`),
    // Search (classes/search-condition.ts): LIKE '%word%' on the folded document for words of three
    // characters or more, the set of its characters for shorter ones, 초성 on its own column (typos: searchTerms).
    index('classes_search_text_idx')
      .using('gin', sql`${t.searchText} gin_trgm_ops`)
      .where(sql`deleted_at is null`),
    index('classes_search_chars_idx')
      .using('gin', t.searchChars)
      .where(sql`deleted_at is null`),
    index('classes_search_initials_idx')
      .using('gin', sql`${t.searchInitials} gin_trgm_ops`)
      .where(sql`deleted_at is null`),
    index('classes_rating_idx')
      .on(
        sql`(${t.ratingTotal}::float8 / nullif(${t.reviewCount}, 0)) desc nulls last`,
        t.createdAt.desc().nullsFirst(),
        t.id.desc().nullsFirst(),
      )
      .where(sql`deleted_at is null`),
  ],
);

export const enrolments = pgTable(
  'enrolments',
  {
    id: serial('id').primaryKey(),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    createdAt: createdAt(),
  },
  (t) => [
    unique('enrolments_class_user_key').on(t.classId, t.userId),
    index('enrolments_user_idx').on(t.userId),
  ],
);

/**
 * A student's review of a class (수강평): one per class and user, 1-5 stars; the teacher may reply once. The
 * class's `review_count` and `rating_total` change in the same transaction as every insert, edit or delete.
 */
export const reviews = pgTable(
  'reviews',
  {
    id: serial('id').primaryKey(),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    rating: integer('rating').notNull(),
    content: text('content').notNull(),
    reply: text('reply'),
    repliedAt: timestamp('replied_at', { withTimezone: true }),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    unique('reviews_class_user_key').on(t.classId, t.userId),
    index('reviews_class_newest_idx').on(
      t.classId,
      t.createdAt.desc().nullsFirst(),
      t.id.desc().nullsFirst(),
    ),
    check('reviews_rating_check', sql`${t.rating} between 1 and 5`),
  ],
);

/**
 * A notice for one user (알림): `kind` is one of the contract's NOTIFICATION_KINDS, about `class_id`; `data`
 * holds what the text needs (a nickname). Kept until read and after; the newest are listed first.
 */
export const notifications = pgTable(
  'notifications',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    kind: text('kind').notNull(),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id),
    className: text('class_name').notNull(),
    data: jsonb('data').notNull().default({}),
    readAt: timestamp('read_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [
    index('notifications_user_idx').on(t.userId, t.id.desc().nullsFirst()),
    index('notifications_unread_idx')
      .on(t.userId)
      .where(sql`read_at is null`),
  ],
);

export const schedules = pgTable(
  'schedules',
  {
    id: serial('id').primaryKey(),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id),
    content: text('content').notNull(),
    date: date('date', { mode: 'string' }).notNull(),
    startTime: time('start_time').notNull(),
    endTime: time('end_time').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('schedules_class_idx').on(t.classId, t.date, t.startTime)],
);

export const chatMessages = pgTable(
  'chat_messages',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id),
    userId: text('user_id').references(() => users.id),
    content: text('content').notNull(),
    createdAt: createdAt(),
  },
  (t) => [
    index('chat_messages_class_idx').on(t.classId, t.id),
    // Slow mode reads a student's last message in a room.
    index('chat_messages_writer_idx').on(t.classId, t.userId, t.id),
  ],
);

/** A student muted by the teacher in a class's room (chat and questions) until a time. */
export const chatMutes = pgTable(
  'chat_mutes',
  {
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    until: timestamp('until', { withTimezone: true }).notNull(),
  },
  (t) => [primaryKey({ columns: [t.classId, t.userId] })],
);

/** A class room's settings the teacher changes during a class: slow mode (0: off). */
export const roomSettings = pgTable('room_settings', {
  classId: integer('class_id')
    .primaryKey()
    .references(() => classes.id),
  slowModeSeconds: integer('slow_mode_seconds').notNull().default(0),
});

/** A raised hand in a class's room, in the order raised. */
export const raisedHands = pgTable(
  'raised_hands',
  {
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    raisedAt: timestamp('raised_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [primaryKey({ columns: [t.classId, t.userId] })],
);

/**
 * One live session of a class: from the teacher's `startRoom` to the end of the lecture. The media service
 * names it (`media_key`, also its recording's folder) and reports it; the recording columns follow its raw
 * recording through processing into a replay.
 */
export const liveSessions = pgTable(
  'live_sessions',
  {
    id: serial('id').primaryKey(),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id),
    mediaKey: text('media_key').notNull().unique(),
    /** The media node that runs (or ran) the session. */
    nodeId: text('node_id').notNull(),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }),
    /**
     * Set while the open session's room is gone with its node (stopped, or found dead) and its teacher may go
     * on with it in a room on another node (session-parts.ts); null otherwise.
     */
    handoverAt: timestamp('handover_at', { withTimezone: true }),
    /** One of the contract's RECORDING_STATES. */
    recordingState: text('recording_state').notNull().default('none'),
    /** 0-100 while processing. */
    recordingProgress: integer('recording_progress').notNull().default(0),
    recordingError: text('recording_error'),
    /** The replay's length in milliseconds once processed. */
    replayDurationMs: integer('replay_duration_ms'),
    /**
     * Stretches of the session that were not recorded (the recordings disk was full, the teacher reconnected on
     * another node), cut out of the ready replay: `[{ fromMs, untilMs, atMs }]`, the stretch in session time
     * and where the replay cuts it on the replay's clock (`atMs`, absent in replays made before it was kept);
     * empty without.
     */
    recordingGaps: jsonb('recording_gaps')
      .$type<{ fromMs: number; untilMs: number; atMs?: number }[]>()
      .notNull()
      .default([]),
    title: text('title'),
    hidden: boolean('hidden').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [
    index('live_sessions_class_idx').on(t.classId, t.startedAt.desc().nullsFirst()),
    index('live_sessions_open_idx')
      .on(t.nodeId)
      .where(sql`ended_at is null`),
  ],
);

/**
 * The rooms of a live session held on several media nodes one after another: its origin node died and the
 * teacher took the class over on an edge, where the session went on (`live_sessions.media_key` and `node_id`
 * name the room it is in now). Every room of such a session, the first and the current one too, in the order
 * of `id` (the order they were taken over in; nodes' clocks may differ); each room's raw recording is `RECORDINGS_DIR/{media_key}`, and the replay joins them. A
 * session held in one room has no rows here.
 */
export const sessionParts = pgTable(
  'session_parts',
  {
    id: serial('id').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => liveSessions.id),
    /** The room's key, as its node reported it. */
    mediaKey: text('media_key').notNull().unique(),
    nodeId: text('node_id').notNull(),
    /** When the room opened or was taken over, on its node's clock (its recording's `startedAt`). */
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
  },
  (t) => [index('session_parts_session_idx').on(t.sessionId)],
);

/**
 * One stay of a student in a session's live room: joined when a media node's report first lists the student,
 * left when a report no longer does (or when the session ends). A student who comes back gets a new row.
 */
export const attendance = pgTable(
  'attendance',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => liveSessions.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    joinedAt: timestamp('joined_at', { withTimezone: true }).notNull(),
    /** Null while the student is in the room. */
    leftAt: timestamp('left_at', { withTimezone: true }),
    /**
     * The media node whose report lists the student now (the origin or an edge of the class); a student who
     * moves to another node keeps the one open row. Null in rows from before edges reported: the session's node.
     */
    nodeId: text('node_id'),
  },
  (t) => [
    index('attendance_session_idx').on(t.sessionId, t.userId),
    uniqueIndex('attendance_open_key')
      .on(t.sessionId, t.userId)
      .where(sql`left_at is null`),
  ],
);

/**
 * A member's replay watching of one session: the seconds credited from the player's beats (a beat credits the
 * time since the previous one, at most 6 s, only while playing at both), the last beat, and the resume point.
 */
export const replayWatches = pgTable(
  'replay_watches',
  {
    sessionId: integer('session_id')
      .notNull()
      .references(() => liveSessions.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    /**
     * The seconds of the replay the member played, as sorted, disjoint `[start, end)` pairs of whole seconds
     * (`[[0, 30], [95, 120]]`): each second counts once however often it is played.
     */
    watched: jsonb('watched').$type<[number, number][]>().notNull().default([]),
    positionS: doublePrecision('position_s').notNull().default(0),
    playing: boolean('playing').notNull().default(false),
    lastBeatAt: timestamp('last_beat_at', { withTimezone: true }).notNull(),
  },
  (t) => [unique('replay_watches_session_user_key').on(t.sessionId, t.userId)],
);

/**
 * A media node as it last reported itself: where the API server reaches it, which run of its process spoke
 * last (`boot`, with that run's report counter `seq`), and when. Sessions name their node by this id; a node
 * silent past the timeout has its sessions ended.
 */
/**
 * A user's private calendar feed. Its URL's token is the `selector` and an HMAC of it under the server's
 * secret (calendar-feeds.ts): the database alone does not give the URL away, and a new selector (a reset)
 * makes the old URL unknown.
 */
export const calendarFeeds = pgTable('calendar_feeds', {
  userId: text('user_id')
    .primaryKey()
    .references(() => users.id),
  selector: text('selector').notNull().unique(),
  createdAt: createdAt(),
});

export const mediaNodes = pgTable('media_nodes', {
  id: text('id').primaryKey(),
  url: text('url').notNull(),
  boot: text('boot').notNull(),
  bootedAt: timestamp('booted_at', { withTimezone: true }).notNull(),
  seq: integer('seq').notNull(),
  lastSeenAt: timestamp('last_seen_at', { withTimezone: true }).notNull(),
  /**
   * The run (`boot`) whose `url` answered the API server's check at its first report: only then is a refused
   * connection there taken as the node being gone (a wrong MEDIA_INTERNAL_URL never is).
   */
  reachedBoot: text('reached_boot'),
});

/** One issued refresh token (`id` is its `jti`); a family is one login's chain of rotations. */
export const refreshTokens = pgTable(
  'refresh_tokens',
  {
    id: text('id').primaryKey(),
    familyId: text('family_id').notNull(),
    accountId: text('account_id')
      .notNull()
      .references(() => accounts.id),
    expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
    familyExpiresAt: timestamp('family_expires_at', { withTimezone: true }).notNull(),
    revokedAt: timestamp('revoked_at', { withTimezone: true }),
    replacedBy: text('replaced_by'),
    createdAt: createdAt(),
  },
  (t) => [index('refresh_tokens_family_idx').on(t.familyId)],
);

/** Single-use login codes of the dev provider (only their hash is stored). */
export const loginCodes = pgTable('login_codes', {
  codeHash: text('code_hash').primaryKey(),
  provider: text('provider').notNull(),
  providerUserId: text('provider_user_id').notNull(),
  expiresAt: timestamp('expires_at', { withTimezone: true }).notNull(),
  usedAt: timestamp('used_at', { withTimezone: true }),
});

/**
 * The durable job queue (jobs/job-queue.ts): a job is `queued` until a worker claims it (`running`, leased to
 * `locked_by` until `locked_until`, renewed while it runs), then `done`, or `queued` again after a failure
 * (from `run_at` on) until `max_attempts`, then `failed`. A lease that runs out (the worker died) lets another
 * worker claim the job again.
 */
export const jobs = pgTable(
  'jobs',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    kind: text('kind').notNull(),
    payload: jsonb('payload').notNull(),
    /** At most one queued or running job per key (e.g. `replay:42`). */
    key: text('key'),
    /** `queued`, `running`, `done` or `failed`. */
    state: text('state').notNull().default('queued'),
    attempts: integer('attempts').notNull().default(0),
    maxAttempts: integer('max_attempts').notNull().default(3),
    runAt: timestamp('run_at', { withTimezone: true }).notNull().defaultNow(),
    lockedBy: text('locked_by'),
    lockedUntil: timestamp('locked_until', { withTimezone: true }),
    /** 0-100, written by the running job. */
    progress: integer('progress').notNull().default(0),
    /** The last failure's message. */
    error: text('error'),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [
    index('jobs_due_idx')
      .on(t.runAt)
      .where(sql`state in ('queued', 'running')`),
    uniqueIndex('jobs_key_idx')
      .on(t.key)
      .where(sql`state in ('queued', 'running')`),
  ],
);

/** A question asked in a live session (kept with the session; the teacher sees its author even if anonymous). */
export const questions = pgTable(
  'questions',
  {
    id: serial('id').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => liveSessions.id),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id),
    userId: text('user_id').references(() => users.id),
    content: text('content').notNull(),
    anonymous: boolean('anonymous').notNull().default(false),
    answered: boolean('answered').notNull().default(false),
    pinned: boolean('pinned').notNull().default(false),
    createdAt: createdAt(),
  },
  (t) => [index('questions_session_idx').on(t.sessionId, t.id)],
);

/** One upvote of a question by one user (the primary key makes a second vote impossible). */
export const questionVotes = pgTable(
  'question_votes',
  {
    questionId: integer('question_id')
      .notNull()
      .references(() => questions.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
  },
  (t) => [primaryKey({ columns: [t.questionId, t.userId] })],
);

/**
 * A poll or quiz of a live session (a quiz when `correct` is set). Results reach students only once the teacher
 * reveals them; a closed poll takes no more votes and stays with its session.
 */
export const polls = pgTable(
  'polls',
  {
    id: serial('id').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => liveSessions.id),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id),
    question: text('question').notNull(),
    options: jsonb('options').$type<string[]>().notNull(),
    multiple: boolean('multiple').notNull().default(false),
    correct: jsonb('correct').$type<number[] | null>(),
    revealed: boolean('revealed').notNull().default(false),
    closedAt: timestamp('closed_at', { withTimezone: true }),
    createdAt: createdAt(),
  },
  (t) => [index('polls_session_idx').on(t.sessionId, t.id)],
);

/** One answer of one user to a poll: the options chosen (the primary key makes a second answer impossible). */
export const pollVotes = pgTable(
  'poll_votes',
  {
    pollId: integer('poll_id')
      .notNull()
      .references(() => polls.id, { onDelete: 'cascade' }),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    options: jsonb('options').$type<number[]>().notNull(),
  },
  (t) => [primaryKey({ columns: [t.pollId, t.userId] })],
);

/**
 * A material of a class (contract materials.ts): an uploaded document turned into a PDF whose pages are rendered
 * to images by its conversion job. Its files live in the file store under `key` (`materials/<uuid>/`).
 */
export const materials = pgTable(
  'materials',
  {
    id: serial('id').primaryKey(),
    classId: integer('class_id')
      .notNull()
      .references(() => classes.id),
    name: text('name').notNull(),
    /** One of the contract's MATERIAL_KINDS (what was uploaded). */
    kind: text('kind').notNull(),
    /** One of the contract's MATERIAL_STATES. */
    state: text('state').notNull().default('converting'),
    progress: integer('progress').notNull().default(0),
    pages: integer('pages').notNull().default(0),
    downloadable: boolean('downloadable').notNull().default(false),
    error: text('error'),
    key: text('key').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('materials_class_idx').on(t.classId, t.id.desc())],
);

/** One rendered page of a ready material: its images' size, its first line of text and all of it (search). */
export const materialPages = pgTable(
  'material_pages',
  {
    materialId: integer('material_id')
      .notNull()
      .references(() => materials.id, { onDelete: 'cascade' }),
    number: integer('number').notNull(),
    title: text('title'),
    text: text('text').notNull().default(''),
    width: integer('width').notNull(),
    height: integer('height').notNull(),
  },
  (t) => [primaryKey({ columns: [t.materialId, t.number] })],
);

/**
 * The board of a live session (contract board.ts): the page on stage, how many whiteboard pages exist, and the
 * student invited to write (null: the teacher alone).
 */
export const boardStates = pgTable('board_states', {
  sessionId: integer('session_id')
    .primaryKey()
    .references(() => liveSessions.id),
  materialId: integer('material_id'),
  page: integer('page'),
  blankPages: integer('blank_pages').notNull().default(0),
  /** `board` (instead of the screen share) or `side` (beside it): the contract's BOARD_LAYOUTS. */
  layout: text('layout').notNull().default('board'),
  writerId: text('writer_id').references(() => users.id),
});

/** Every page change of a session's board, in order (the replay's stage and chapters); `title`: the teacher's. */
export const boardStages = pgTable(
  'board_stages',
  {
    id: serial('id').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => liveSessions.id),
    /** Null: the stage was left. */
    materialId: integer('material_id'),
    page: integer('page'),
    /**
     * The stage's layout from this change on (contract BOARD_LAYOUTS); null in rows from before it was kept:
     * read as `board`, the page instead of the screen share.
     */
    layout: text('layout'),
    at: timestamp('at', { withTimezone: true }).notNull(),
    title: text('title'),
    /** The teacher removed this page change's chapter from the replay's list. */
    chapterRemoved: boolean('chapter_removed').notNull().default(false),
  },
  (t) => [index('board_stages_session_idx').on(t.sessionId, t.id)],
);

/**
 * A chapter mark the teacher set in a session ('여기서 새 챕터' live, or later on the replay page), at a moment
 * of the session (`at`, on the session's clock like the board's page changes); the replay's list joins them
 * with the page chapters (docs/replay.md, "Chapters").
 */
export const chapterMarks = pgTable(
  'chapter_marks',
  {
    id: serial('id').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => liveSessions.id),
    at: timestamp('at', { withTimezone: true }).notNull(),
    title: text('title').notNull(),
    createdAt: createdAt(),
  },
  (t) => [index('chapter_marks_session_idx').on(t.sessionId, t.at)],
);

/**
 * A member's private note pinned to a moment of a session (`at`, on the session's clock: a note taken live and
 * one taken in the replay land on the same timeline). Only its writer ever reads it.
 */
export const sessionNotes = pgTable(
  'session_notes',
  {
    id: serial('id').primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => liveSessions.id),
    userId: text('user_id')
      .notNull()
      .references(() => users.id),
    at: timestamp('at', { withTimezone: true }).notNull(),
    content: text('content').notNull(),
    createdAt: createdAt(),
    updatedAt: timestamp('updated_at', { withTimezone: true }).notNull().defaultNow(),
  },
  (t) => [index('session_notes_user_session_idx').on(t.userId, t.sessionId, t.at)],
);

/**
 * One stroke of ink on a page of a session's board (`material_id` 0: the whiteboard), its points appended piece
 * by piece as they are drawn. An erased or cleared stroke stays, with `erased_at`, for the replay.
 */
export const boardStrokes = pgTable(
  'board_strokes',
  {
    id: bigserial('id', { mode: 'number' }).primaryKey(),
    sessionId: integer('session_id')
      .notNull()
      .references(() => liveSessions.id),
    materialId: integer('material_id').notNull(),
    page: integer('page').notNull(),
    strokeId: text('stroke_id').notNull(),
    userId: text('user_id').notNull(),
    tool: text('tool').notNull(),
    color: text('color').notNull(),
    width: doublePrecision('width').notNull(),
    text: text('text'),
    points: jsonb('points').$type<[number, number, number][]>().notNull(),
    done: boolean('done').notNull().default(false),
    startedAt: timestamp('started_at', { withTimezone: true }).notNull(),
    endedAt: timestamp('ended_at', { withTimezone: true }).notNull(),
    erasedAt: timestamp('erased_at', { withTimezone: true }),
  },
  (t) => [unique('board_strokes_stroke_key').on(t.sessionId, t.materialId, t.page, t.strokeId)],
);
