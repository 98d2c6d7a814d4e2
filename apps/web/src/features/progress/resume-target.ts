import type { ClassProgress, SessionProgress } from '@sea/contract/progress';

/**
 * The replay '이어보기' opens: the one watched last, unless it is completed, then the next one not completed
 * after it; with nothing watched yet, the first not completed. Null when the class has no replay.
 */
export function resumeTarget(progress: ClassProgress): SessionProgress | null {
  const { sessions } = progress;
  if (sessions.length === 0) return null;
  let last = -1;
  sessions.forEach((session, index) => {
    const at = session.last_watched_at;
    const best = sessions[last]?.last_watched_at ?? null;
    if (at !== null && (best === null || at > best)) last = index;
  });
  const lastWatched = sessions[last];
  if (lastWatched !== undefined && !lastWatched.completed) return lastWatched;
  const next = sessions.slice(last + 1).find((session) => !session.completed);
  return next ?? sessions.find((session) => !session.completed) ?? lastWatched ?? sessions[0] ?? null;
}
