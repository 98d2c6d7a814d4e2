import { useQuery } from '@tanstack/react-query';
import { classKeys } from '../../../lib/class-keys.ts';
import { fetchClassPage } from './class-page.ts';

/** `GET /api/classes?target=topten`: the ten classes with the most students, most first. */
export function useTopTen(enabled = true) {
  return useQuery({
    queryKey: classKeys.topTen(),
    queryFn: ({ signal }) => fetchClassPage({ page: 0, target: 'topten' }, signal),
    enabled,
  });
}

/** `GET /api/classes?target=live&page=0`: the home page's grid of live classes (the first page). */
export function useLivePreview() {
  return useQuery({
    queryKey: classKeys.livePreview(),
    queryFn: ({ signal }) => fetchClassPage({ page: 0, target: 'live' }, signal),
  });
}
