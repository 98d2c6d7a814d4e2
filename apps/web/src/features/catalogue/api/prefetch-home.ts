import type { QueryClient } from '@tanstack/react-query';
import { classKeys } from '../../../lib/class-keys.ts';
import { fetchClassPage } from './class-page.ts';

/**
 * Starts the home page's two list requests at once, while its code is still loading, instead of after it
 * (they are the largest-paint path: list → banner image).
 */
export function prefetchHome(queryClient: QueryClient): void {
  void queryClient.prefetchQuery({
    queryKey: classKeys.topTen(),
    queryFn: ({ signal }) => fetchClassPage({ page: 0, target: 'topten' }, signal),
  });
  void queryClient.prefetchQuery({
    queryKey: classKeys.livePreview(),
    queryFn: ({ signal }) => fetchClassPage({ page: 0, target: 'live' }, signal),
  });
}
