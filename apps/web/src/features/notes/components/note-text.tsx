import { Fragment, type ReactNode } from 'react';

/** A Markdown link `[text](https://…)` or a bare web address. */
const LINK = /\[([^\]\n]{1,200})\]\((https?:\/\/[^\s()<>]+)\)|(https?:\/\/[^\s<>]+[^\s<>.,;:!?'")\]])/g;

/** The parts of one line: plain text, and links (only http and https). */
export function lineParts(line: string): ({ text: string } | { text: string; href: string })[] {
  const parts: ({ text: string } | { text: string; href: string })[] = [];
  let last = 0;
  for (const match of line.matchAll(LINK)) {
    const index = match.index;
    if (index > last) parts.push({ text: line.slice(last, index) });
    const [whole, label, target, bare] = match;
    const href = target ?? bare ?? whole;
    parts.push({ text: label ?? href, href });
    last = index + whole.length;
  }
  if (last < line.length) parts.push({ text: line.slice(last) });
  return parts;
}

/**
 * A note's text, Markdown-light: its line breaks kept and its links shown as links (opened in a new tab,
 * `rel="noopener noreferrer"`); anything else (emphasis, headings, HTML) shows as the characters typed. Built
 * as React elements, so nothing the note holds is ever parsed as HTML.
 */
export function NoteText({ text }: { text: string }) {
  const lines = text.split(/\r?\n/);
  const rendered: ReactNode[] = lines.map((line, row) => (
    <Fragment key={row}>
      {row > 0 && <br />}
      {lineParts(line).map((part, index) =>
        'href' in part ? (
          <a key={index} href={part.href} target="_blank" rel="noopener noreferrer">
            {part.text}
          </a>
        ) : (
          <Fragment key={index}>{part.text}</Fragment>
        ),
      )}
    </Fragment>
  ));
  return <>{rendered}</>;
}
