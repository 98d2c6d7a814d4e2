import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { ClassItem } from '@sea/contract/classes';
import { BANNER_CARD_SIZES, bannerCardSrcSet } from '@sea/contract/uploads';
import { paths } from '../../../config/paths.ts';
import { bannerFor } from '../../../lib/default-images.ts';
import { formatTimeOfDay } from '../../../lib/format-date-time.ts';
import { useSeoulDay } from '../../../lib/use-seoul-day.ts';
import { todayLiveLine } from '../format-next-session.ts';
import { CATALOGUE_TEXTS } from '../texts.ts';
import { CardStats } from './card-stats.tsx';
import { Highlight } from './highlight.tsx';
import styles from './class-card.module.css';

/** What a card needs of a class (a list item of `GET /api/classes`). */
export type ClassSummary = Pick<
  ClassItem,
  | 'id'
  | 'name'
  | 'user_id'
  | 'instructor'
  | 'category'
  | 'banner_image_path'
  | 'is_active'
  | 'student_count'
  | 'rating_average'
  | 'review_count'
  | 'next_session_at'
  | 'live_started_at'
  | 'live_viewer_count'
> &
  Partial<Pick<ClassItem, 'live_waiting'>>;

export type ClassCardProps = {
  item: ClassSummary;
  /** Where a click leads; the class introduction by default. */
  href?: string;
  /** Top-ten cards show their rank, padded to two digits. */
  rank?: number;
  /** My-page cards show the student count, 'edit' and 'delete'. */
  onDelete?: (item: ClassSummary) => void;
  editHref?: string;
  /** Heading level of the class name inside the surrounding section. */
  headingLevel?: 2 | 3;
  /** The first cards of a page load their banner at once and before anything else (the largest paint). */
  priority?: boolean;
  /** Cards in the first screenful load their banner at once (others wait until they are near the view). */
  eager?: boolean;
  /** A search query whose words are marked in the name, category and teacher. */
  highlight?: string;
  /** The moment "today" is judged by (tests fix it); by default a moment of the current Seoul day. */
  now?: Date;
  /** What a page adds at the card's foot ('내 강의실': the student's progress and '이어보기'). */
  footer?: ReactNode;
};

/** An uploaded banner's card copy and the banner itself, for the browser to choose by the card's width. */
function cardSources(bannerPath: string | null): { srcSet?: string; sizes?: string } {
  const srcSet = bannerPath === null ? null : bannerCardSrcSet(bannerPath);
  return srcSet === null ? {} : { srcSet, sizes: BANNER_CARD_SIZES };
}

/** Pads a rank to two digits: 1 → '01'. */
export function formatRank(rank: number): string {
  return String(rank).padStart(2, '0');
}

/**
 * A live card's line: '시청 중 12명 · 14:05 시작' (the students in the room now and the time of day the lecture
 * started, in the app's one clock style), or what of it the API server knows; '강사를 기다리는 중이에요' for a
 * lecture whose media node was lost while it waits for its teacher; null for a class not live.
 */
export function liveLine(
  item: Pick<ClassSummary, 'is_active' | 'live_started_at' | 'live_viewer_count' | 'live_waiting'>,
) {
  if (!item.is_active) return item.live_waiting === true ? CATALOGUE_TEXTS.liveWaiting : null;
  const started = item.live_started_at === null ? '' : formatTimeOfDay(item.live_started_at);
  const parts = [
    ...(item.live_viewer_count === null ? [] : [CATALOGUE_TEXTS.liveWatching(item.live_viewer_count)]),
    ...(started === '' ? [] : [CATALOGUE_TEXTS.liveStarted(started)]),
  ];
  return parts.length === 0 ? null : parts.join(' · ');
}

/**
 * A class card: banner (or its default), category, name, teacher and, for a class with a session later today
 * (Asia/Seoul), when it goes live; a live class's card says how many watch and when it started. The name is the card's one main link, stretched over the whole card; the
 * teacher's name links to their page and sits above that stretch, so no link is nested in another.
 */
export function ClassCard({
  item,
  href,
  rank,
  onDelete,
  editHref,
  headingLevel = 3,
  priority = false,
  eager = false,
  highlight,
  now,
  footer,
}: ClassCardProps) {
  const Heading = headingLevel === 2 ? 'h2' : 'h3';
  const mine = onDelete !== undefined || editHref !== undefined;
  const day = useSeoulDay();
  const today = item.is_active ? null : todayLiveLine(item.next_session_at, now ?? day);
  const live = liveLine(item);
  return (
    <article className={styles.card}>
      <div className={styles.bannerWrap}>
        <img
          className={styles.banner}
          src={bannerFor(item.id, item.banner_image_path)}
          {...cardSources(item.banner_image_path)}
          alt=""
          loading={priority || eager ? 'eager' : 'lazy'}
          fetchPriority={priority ? 'high' : 'auto'}
          decoding="async"
          width={320}
          height={180}
        />
        {rank !== undefined && (
          <span className={styles.rank}>
            <span className="visually-hidden">{CATALOGUE_TEXTS.rank(rank)}</span>
            <span aria-hidden="true">{formatRank(rank)}</span>
          </span>
        )}
        {item.is_active && (
          <span className={styles.live}>
            <span aria-hidden="true">{CATALOGUE_TEXTS.live}</span>
            <span className="visually-hidden">{CATALOGUE_TEXTS.liveNow}</span>
          </span>
        )}
      </div>
      <div className={styles.body}>
        <p className={styles.category}>
          <Highlight text={item.category} query={highlight} />
        </p>
        <Heading className={styles.name}>
          <Link to={href ?? paths.lectureInfo.to(item.id)} className={styles.link}>
            <Highlight text={item.name} query={highlight} />
          </Link>
        </Heading>
        <p className={styles.instructor}>
          <Link to={paths.instructor.to(item.user_id)} className={styles.instructorLink}>
            <Highlight text={CATALOGUE_TEXTS.instructor(item.instructor)} query={highlight} />
          </Link>
        </p>
        {today !== null && <p className={styles.today}>{today}</p>}
        {live !== null && <p className={styles.liveLine}>{live}</p>}
        {mine ? (
          <p className={styles.count}>{CATALOGUE_TEXTS.studentCount(item.student_count)}</p>
        ) : (
          <CardStats
            ratingAverage={item.rating_average}
            reviewCount={item.review_count}
            studentCount={item.student_count}
          />
        )}
      </div>
      {mine && (
        <div className={styles.actions}>
          {editHref !== undefined && (
            <Link to={editHref} className={styles.action} aria-label={CATALOGUE_TEXTS.editLabel(item.name)}>
              {CATALOGUE_TEXTS.edit}
            </Link>
          )}
          {onDelete !== undefined && (
            <button
              type="button"
              className={`${styles.action} ${styles.danger}`}
              aria-label={CATALOGUE_TEXTS.deleteLabel(item.name)}
              onClick={() => onDelete(item)}
            >
              {CATALOGUE_TEXTS.delete}
            </button>
          )}
        </div>
      )}
      {footer !== undefined && <div className={styles.footer}>{footer}</div>}
    </article>
  );
}
