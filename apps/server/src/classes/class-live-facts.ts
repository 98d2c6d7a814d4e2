import { sql } from 'drizzle-orm';
import { classes } from '../db/schema.ts';

// Two columns of the class item while its class is live, each one correlated subquery of the same statement
// (never a query per class), probing `live_sessions_class_idx` and `attendance_session_idx`. A class that is
// not live (`is_active` false, a lecture waiting for its teacher included) has neither.

/**
 * When the class's open live session started, as ISO-8601 UTC text (the same text on PostgreSQL and PGlite),
 * or null when the class is not live. A session its teacher continued after a lost connection keeps its
 * first start.
 */
export const liveStartedAt = sql<string | null>`(
  select to_char(l.started_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
    from live_sessions l
    where l.class_id = ${classes.id} and ${classes.isActive} and l.ended_at is null
    order by l.started_at desc
    limit 1)`;

/**
 * Whether the class's lecture waits for its teacher: an open session handed over (its node stopped or was
 * found gone, `handover_at`) while the class is not live. The sweep ends such a session after its wait.
 */
export const liveWaiting = sql<boolean>`(not ${classes.isActive} and exists (
  select 1 from live_sessions l
    where l.class_id = ${classes.id} and l.ended_at is null and l.handover_at is not null))`;

/**
 * How many students are in the open live session's room now, as the media nodes last reported them (the
 * attendance rows still open, an edge node's students included), or null when the class is not live.
 */
export const liveViewerCount = sql<number | null>`(
  select case when ${classes.isActive} then count(distinct a.user_id)::int end
    from live_sessions l
    left join attendance a on a.session_id = l.id and a.left_at is null
    where l.class_id = ${classes.id} and l.ended_at is null)`;
