import { useEffect, useId, useState, type FormEvent } from 'react';
import { SEARCH_QUERY_MAX, searchQueryError } from '@sea/contract/search';
import { SearchIcon } from '../../../components/ui/icons.tsx';
import { CATALOGUE_TEXTS } from '../texts.ts';
import styles from './search-box.module.css';

export type SearchBoxProps = {
  /** The query shown, e.g. the one in the address. */
  value: string;
  onSearch: (q: string) => void;
  /** Take the focus on arrival (the header's narrow search button led here). */
  focus?: boolean;
};

/** The lecture list's search field: searches on submit (Enter or the button); clearing it shows every class. */
export function SearchBox({ value, onSearch, focus = false }: SearchBoxProps) {
  const [text, setText] = useState(value);
  const id = useId();
  useEffect(() => setText(value), [value]);
  function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    // The server refuses more words than it searches: say so here, with its words, and send nothing.
    if (searchQueryError(text) !== null) {
      event.currentTarget.querySelector('input')?.reportValidity();
      return;
    }
    onSearch(text.trim());
  }
  return (
    <form role="search" className={styles.form} onSubmit={submit}>
      <label htmlFor={id} className="visually-hidden">
        {CATALOGUE_TEXTS.searchLabel}
      </label>
      <input
        id={id}
        type="search"
        className={styles.input}
        value={text}
        maxLength={SEARCH_QUERY_MAX}
        placeholder={CATALOGUE_TEXTS.searchPlaceholder}
        enterKeyHint="search"
        // The visitor pressed the search button to type here: the box is what they asked for.
        autoFocus={focus}
        onChange={(event) => {
          event.target.setCustomValidity(searchQueryError(event.target.value) ?? '');
          setText(event.target.value);
          if (event.target.value === '' && value !== '') onSearch('');
        }}
      />
      <button type="submit" className={styles.button}>
        <SearchIcon />
        <span className="visually-hidden">{CATALOGUE_TEXTS.searchSubmit}</span>
      </button>
    </form>
  );
}
