import { useEffect, useState } from 'react';
import { formatClock } from '../../../lib/format-date-time.ts';
import { LIVE_TEXTS } from '../texts.ts';
import styles from './live.module.css';

/**
 * The lecture's elapsed time, '강의 시간 12:34' ('1:02:03' past an hour), counted from its session's start as
 * the API server knows it (so a teacher who reloads sees the true time, not the time since the page opened),
 * ticking each second. Nothing until the start is known.
 */
export function LectureClock({ startedAt }: { startedAt: string | null }) {
  const start = startedAt === null ? Number.NaN : Date.parse(startedAt);
  const known = !Number.isNaN(start);
  const [now, setNow] = useState(() => Date.now());
  useEffect(() => {
    if (!known) return undefined;
    setNow(Date.now());
    const timer = setInterval(() => setNow(Date.now()), 1000);
    return () => clearInterval(timer);
  }, [known]);
  if (!known) return null;
  return (
    <span role="timer" className={styles.clock}>
      {LIVE_TEXTS.elapsed(formatClock((now - start) / 1000))}
    </span>
  );
}
