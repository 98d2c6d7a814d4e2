import { sql } from 'drizzle-orm';
import { SCHEDULE_TIME_ZONE } from '@sea/contract/schedules';
import { classes } from '../db/schema.ts';

// Two columns of the class item, each one correlated subquery of the same statement (never a query per
// class): on a page of twelve they are twelve index probes, `schedules_class_idx` and
// `live_sessions_class_idx`.

/** An entry's date and time as an instant: schedules are wall-clock time in Asia/Seoul. */
const at = (time: 'start_time' | 'end_time') =>
  sql.raw(`((s.date + s.${time}) at time zone '${SCHEDULE_TIME_ZONE}')`);

/** Today's date in Asia/Seoul: no entry dated earlier can still be ahead (an entry ends on its own date). */
const SEOUL_TODAY = sql.raw(`(now() at time zone '${SCHEDULE_TIME_ZONE}')::date`);

/**
 * The start of the class's earliest schedule entry that has not ended, as ISO-8601 UTC text (the same text
 * on PostgreSQL and PGlite, whose drivers read timestamps differently), or null. An entry under way counts:
 * its class is still "today at 8 pm" until the entry's end.
 */
export const nextSessionAt = sql<string | null>`(
  select to_char(${at('start_time')} at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS"Z"')
    from schedules s
    where s.class_id = ${classes.id} and s.date >= ${SEOUL_TODAY} and ${at('end_time')} > now()
    order by s.date, s.start_time
    limit 1)`;

/** The class's replays its students can watch: processed and not hidden by the teacher. */
export const replayCount = sql<number>`(
  select count(*)::int from live_sessions r
    where r.class_id = ${classes.id} and r.recording_state = 'ready' and not r.hidden)`;
