import { useEffect, useId, useState, type FormEvent, type KeyboardEvent } from 'react';
import { useNavigate } from 'react-router';
import { SEARCH_QUERY_MAX, searchQueryError } from '@sea/contract/search';
import { SearchIcon } from '../../../components/ui/icons.tsx';
import { paths } from '../../../config/paths.ts';
import { useSuggestions } from '../api/use-suggestions.ts';
import { addRecentSearch, readRecentSearches } from '../recent-searches.ts';
import { CATALOGUE_TEXTS } from '../texts.ts';
import styles from './search-box.module.css';

export type SearchBoxProps = {
  /** The query shown, e.g. the one in the address. */
  value: string;
  onSearch: (q: string) => void;
  /** Take the focus on arrival (the header's narrow search button led here). */
  focus?: boolean;
};

/** One line of the list under the box: what it shows and what choosing it does. */
type Option = { key: string; label: string; choose: () => void };

/**
 * The lecture list's search field: searches on submit (Enter or the button); clearing it shows every class.
 * As the visitor types it suggests classes and instructors (useSuggestions: debounced, stale requests
 * aborted), and while empty it offers their recent searches; an ARIA combobox: ↓/↑ move through the list,
 * Enter chooses, Escape closes it.
 */
export function SearchBox({ value, onSearch, focus = false }: SearchBoxProps) {
  const [text, setText] = useState(value);
  const [open, setOpen] = useState(false);
  const [active, setActive] = useState(-1);
  const [recent, setRecent] = useState(readRecentSearches);
  const navigate = useNavigate();
  const suggestions = useSuggestions(open ? text : '');
  const id = useId();
  const listId = `${id}-list`;
  useEffect(() => setText(value), [value]);

  function search(query: string) {
    if (query !== '') setRecent(addRecentSearch(query));
    setOpen(false);
    onSearch(query);
  }
  const options: Option[] =
    text.trim() === ''
      ? recent.map((query) => ({
          key: `recent-${query}`,
          label: query,
          choose: () => {
            setText(query);
            search(query);
          },
        }))
      : [
          ...(suggestions?.classes ?? []).map((item) => ({
            key: `class-${item.id}`,
            label: CATALOGUE_TEXTS.suggestedClass(item.name, item.teacher_nickname),
            choose: () => void navigate(paths.lectureInfo.to(item.id)),
          })),
          ...(suggestions?.instructors ?? []).map((person) => ({
            key: `instructor-${person.id}`,
            label: CATALOGUE_TEXTS.suggestedInstructor(person.nickname),
            choose: () => void navigate(paths.instructor.to(person.id)),
          })),
        ];
  const expanded = open && options.length > 0;
  const current = expanded ? options[active] : undefined;

  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    if (current !== undefined) {
      current.choose();
      return;
    }
    // The server refuses more words than it searches: say so here, with its words, and send nothing.
    if (searchQueryError(text) !== null) {
      event.currentTarget.querySelector('input')?.reportValidity();
      return;
    }
    search(text.trim());
  }
  function move(event: KeyboardEvent<HTMLInputElement>) {
    if (event.key === 'ArrowDown' || event.key === 'ArrowUp') {
      event.preventDefault();
      setOpen(true);
      const step = event.key === 'ArrowDown' ? 1 : -1;
      setActive((index) => (options.length === 0 ? -1 : (index + step + options.length) % options.length));
    } else if (event.key === 'Escape') {
      setOpen(false);
      setActive(-1);
    }
  }
  return (
    <form role="search" className={styles.form} onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        {CATALOGUE_TEXTS.searchLabel}
      </label>
      <input
        id={id}
        type="search"
        role="combobox"
        aria-expanded={expanded}
        aria-controls={listId}
        aria-autocomplete="list"
        aria-activedescendant={current === undefined ? undefined : `${id}-${current.key}`}
        autoComplete="off"
        className={styles.input}
        value={text}
        maxLength={SEARCH_QUERY_MAX}
        placeholder={CATALOGUE_TEXTS.searchPlaceholder}
        enterKeyHint="search"
        // The visitor pressed the search button to type here: the box is what they asked for.
        autoFocus={focus}
        onFocus={() => setOpen(true)}
        onBlur={() => setOpen(false)}
        onKeyDown={move}
        onChange={(event) => {
          event.target.setCustomValidity(searchQueryError(event.target.value) ?? '');
          setText(event.target.value);
          setOpen(true);
          setActive(-1);
          if (event.target.value === '' && value !== '') onSearch('');
        }}
      />
      <button type="submit" className={styles.button}>
        <SearchIcon />
        <span className="visually-hidden">{CATALOGUE_TEXTS.searchSubmit}</span>
      </button>
      <ul
        id={listId}
        role="listbox"
        aria-label={text.trim() === '' ? CATALOGUE_TEXTS.recentSearches : CATALOGUE_TEXTS.suggestionsLabel}
        className={styles.list}
        hidden={!expanded}
      >
        {expanded &&
          options.map((option, index) => (
            <li
              key={option.key}
              id={`${id}-${option.key}`}
              role="option"
              aria-selected={index === active}
              className={styles.option}
              // Chosen on mouse down: the input's blur (which closes the list) comes after it.
              onMouseDown={(event) => {
                event.preventDefault();
                option.choose();
              }}
            >
              {option.label}
            </li>
          ))}
      </ul>
    </form>
  );
}
