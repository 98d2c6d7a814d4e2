import { useEffect, useState } from 'react';
import { ROUTES } from '@sea/contract/paths';
import type { Suggestions } from '@sea/contract/suggestions';
import { http } from '../../../lib/http.ts';

/** How long typing must pause before the box asks for suggestions. */
export const SUGGEST_DEBOUNCE_MS = 200;

/**
 * Suggestions for what the search box holds: asked once typing pauses for SUGGEST_DEBOUNCE_MS, and each new
 * text aborts the request of the one before (AbortController), so a slow answer for '파' never replaces the
 * one for '파이썬'. Null while there is nothing to show (blank text, waiting, or a failed request: the box then
 * works as a plain search field).
 */
export function useSuggestions(text: string): Suggestions | null {
  const [suggestions, setSuggestions] = useState<Suggestions | null>(null);
  const query = text.trim();
  useEffect(() => {
    setSuggestions(null);
    if (query === '') return undefined;
    const controller = new AbortController();
    const timer = setTimeout(() => {
      http<Suggestions>(ROUTES.searchSuggest, {
        query: { q: query },
        signal: controller.signal,
        anonymous: true,
      })
        .then((found) => {
          if (!controller.signal.aborted) setSuggestions(found);
        })
        .catch(() => {
          // Aborted (a newer text) or failed: suggestions are a help, the search itself still works.
        });
    }, SUGGEST_DEBOUNCE_MS);
    return () => {
      clearTimeout(timer);
      controller.abort();
    };
  }, [query]);
  return suggestions;
}
