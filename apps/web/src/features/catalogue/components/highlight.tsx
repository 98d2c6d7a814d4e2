import { searchWords } from '@sea/contract/search';
import styles from './highlight.module.css';

function escapeRegExp(text: string): string {
  return text.replace(/[.*+?^${}()|[\]\\]/gu, '\\$&');
}

/** Splits `text` into the parts that match a word of `query` (case-insensitive) and the parts between. */
export function highlightParts(text: string, query: string): { text: string; match: boolean }[] {
  const words = searchWords(query).sort((a, b) => b.length - a.length);
  if (words.length === 0) return [{ text, match: false }];
  const pattern = new RegExp(`(${words.map(escapeRegExp).join('|')})`, 'giu');
  // With one capturing group, split answers the text between matches at even indices, the matches at odd ones.
  return text
    .split(pattern)
    .map((part, index) => ({ text: part, match: index % 2 === 1 }))
    .filter((part) => part.text !== '');
}

/** `text` with the words of the search query marked, as the server matched them (any part of a word). */
export function Highlight({ text, query }: { text: string; query: string | undefined }) {
  if (query === undefined) return <>{text}</>;
  return (
    <>
      {highlightParts(text, query).map((part, index) =>
        part.match ? (
          <mark key={index} className={styles.mark}>
            {part.text}
          </mark>
        ) : (
          part.text
        ),
      )}
    </>
  );
}
