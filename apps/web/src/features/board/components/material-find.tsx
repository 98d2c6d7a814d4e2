import { useEffect, useState, type FormEvent } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { useMaterialSearch } from '../../../lib/material-queries.ts';
import { BOARD_TEXTS as T } from '../texts.ts';
import styles from './presenter.module.css';

/**
 * The find box of the material on stage: the words are looked up in its pages' text on the server, and the
 * pages found go to `onFound` (the thumbnails highlight them); a blank search clears them.
 */
export function MaterialFind({
  classId,
  materialId,
  onFound,
}: {
  classId: number;
  materialId: number;
  onFound: (pages: ReadonlySet<number>) => void;
}) {
  const [text, setText] = useState('');
  const [query, setQuery] = useState('');
  const search = useMaterialSearch(classId, materialId, query);
  const submit = (event: FormEvent): void => {
    event.preventDefault();
    setQuery(text);
    if (text.trim() === '') onFound(new Set());
  };
  const pages = query.trim() === '' ? undefined : search.data?.pages;
  useEffect(() => {
    if (pages) onFound(new Set(pages));
  }, [pages, onFound]);
  return (
    <form className={styles.row} role="search" aria-label={T.find} onSubmit={submit}>
      <label className={styles.field}>
        {T.find}
        <input type="search" value={text} maxLength={50} onChange={(event) => setText(event.target.value)} />
      </label>
      <Button size="sm" variant="secondary" type="submit">
        {T.findButton}
      </Button>
      <span role="status" className={styles.notice}>
        {pages ? T.foundPages(pages.length) : search.isError ? T.findFailed : ''}
      </span>
    </form>
  );
}
