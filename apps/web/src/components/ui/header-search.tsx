import { useState, type FormEvent } from 'react';
import { Link, useLocation, useNavigate } from 'react-router';
import { PAGES } from '@sea/contract/paths';
import { SEARCH_QUERY_MAX, searchQueryError } from '@sea/contract/search';
import { SearchIcon } from './icons.tsx';
import { UI_TEXTS } from './texts.ts';
import styles from './header-search.module.css';

/** Pages with their own search box (or none wanted): the header shows none there. */
export function headerSearchHidden(pathname: string): boolean {
  return pathname === PAGES.list || pathname === PAGES.liveList;
}

/** The navigation state with which the narrow search button opens the list: its search box takes the focus. */
export const FOCUS_SEARCH_STATE = { focusSearch: true } as const;

/** Whether a page was opened by the narrow search button (and its search box should take the focus). */
export function wantsSearchFocus(state: unknown): boolean {
  return typeof state === 'object' && state !== null && 'focusSearch' in state && state.focusSearch === true;
}

/** `/list?q=...`: the results page of a search. */
export function searchResultsPath(q: string): string {
  return `${PAGES.list}?${new URLSearchParams({ q }).toString()}`;
}

/**
 * The header's class search: a field on wide screens, a button to the lecture list's search on narrow ones,
 * which opens it with the focus in its box (the phone's keyboard up).
 * Submitting opens the results page.
 */
export function HeaderSearch() {
  const { pathname } = useLocation();
  const navigate = useNavigate();
  const [text, setText] = useState('');
  if (headerSearchHidden(pathname)) return null;
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The server refuses more words than it searches: say so here, with its words, and send nothing.
    if (searchQueryError(text) !== null) {
      event.currentTarget.querySelector('input')?.reportValidity();
      return;
    }
    const q = text.trim();
    navigate(q === '' ? PAGES.list : searchResultsPath(q));
    setText('');
  }
  return (
    <>
      <form role="search" className={styles.form} onSubmit={submit}>
        <input
          type="search"
          className={styles.input}
          aria-label={UI_TEXTS.searchLabel}
          placeholder={UI_TEXTS.searchPlaceholder}
          value={text}
          maxLength={SEARCH_QUERY_MAX}
          enterKeyHint="search"
          onChange={(event) => {
            event.target.setCustomValidity(searchQueryError(event.target.value) ?? '');
            setText(event.target.value);
          }}
        />
        <button type="submit" className={styles.submit}>
          <SearchIcon width={18} height={18} />
          <span className="visually-hidden">{UI_TEXTS.searchSubmit}</span>
        </button>
      </form>
      <Link to={PAGES.list} state={FOCUS_SEARCH_STATE} className={styles.narrow}>
        <SearchIcon />
        <span className="visually-hidden">{UI_TEXTS.searchOpen}</span>
      </Link>
    </>
  );
}
