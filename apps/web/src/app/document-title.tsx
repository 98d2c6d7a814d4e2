import { useEffect } from 'react';
import { useMatches } from 'react-router';
import { APP_TEXTS } from './texts.ts';

/** What a route of the table carries in its `handle`: the page's name in the browser tab. */
export type RouteHandle = { title: string };

function titleOf(handle: unknown): string | null {
  if (typeof handle !== 'object' || handle === null || !('title' in handle)) return null;
  return typeof handle.title === 'string' ? handle.title : null;
}

/** '전체 강의 · 바다학원'; the app's name alone for a page without a title of its own (home). */
export function documentTitle(pageTitle: string | null): string {
  return pageTitle === null
    ? APP_TEXTS.appName
    : `${pageTitle}${APP_TEXTS.titleSeparator}${APP_TEXTS.appName}`;
}

/**
 * Keeps `document.title` on the deepest matched route's `handle.title` (see `routes.tsx`), so every page,
 * its browser tab and its history entry are named in Korean.
 */
export function DocumentTitle() {
  const matches = useMatches();
  const pageTitle = matches.map((match) => titleOf(match.handle)).findLast((title) => title !== null) ?? null;
  useEffect(() => {
    document.title = documentTitle(pageTitle);
  }, [pageTitle]);
  return null;
}
