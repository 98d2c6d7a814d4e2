import { useQuery } from '@tanstack/react-query';
import type { MyLiveClass } from '@sea/contract/classes';
import { ROUTES } from '@sea/contract/paths';
import { paths } from '../../../config/paths.ts';
import { http } from '../../../lib/http.ts';
import { useLoggedIn } from '../../../lib/use-logged-in.ts';
import type { ClassSummary } from '../components/class-card.tsx';

/** How long the list of my live classes is reused before it is asked again. */
const MY_LIVE_STALE_MS = 15_000;

/** The query key of `GET /api/users/live-classes`, under the classes' tree so class changes refresh it. */
export const MY_LIVE_CLASSES_KEY = ['classes', 'mine', 'live'] as const;

/**
 * Where a card leads when it shows LIVE: straight into the room of a class the signed-in user may enter
 * (the teacher's room for its teacher, the students' room for an enrolled student); undefined otherwise, so
 * the card keeps its default (the class introduction). A visitor asks nothing.
 */
export function useLiveCardHref(): (item: ClassSummary) => string | undefined {
  const loggedIn = useLoggedIn();
  const mine = useQuery({
    queryKey: MY_LIVE_CLASSES_KEY,
    queryFn: ({ signal }) => http<MyLiveClass[]>(ROUTES.myLiveClasses, { signal }),
    enabled: loggedIn,
    staleTime: MY_LIVE_STALE_MS,
  });
  const roles = new Map((loggedIn ? (mine.data ?? []) : []).map((entry) => [entry.id, entry.role]));
  return (item) => {
    if (!item.is_active) return undefined;
    const role = roles.get(item.id);
    // The contract's role names, written out: its CLASS_ROLES module would bring zod onto the home page.
    if (role === '강사') return paths.liveTeacher.to(item.id);
    if (role === '수강생') return paths.liveStudent.to(item.id);
    return undefined;
  };
}
