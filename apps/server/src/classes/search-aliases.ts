/**
 * Names people type for the same subject in another script: a search for one member of a group also finds
 * classes that hold another ('typescript' finds '타입스크립트 입문', '파이썬' finds 'Python 기초'). Applied to
 * the query (search-condition.ts), never stored: changing this list needs no migration or backfill.
 *
 * Keep it small: loan words whose Korean and English spellings both appear in titles, each group a subject.
 * Members are written folded (lower case, no spaces), Korean first.
 */
export const SEARCH_ALIASES: ReadonlyArray<readonly string[]> = [
  ['타입스크립트', 'typescript'],
  ['자바스크립트', 'javascript'],
  ['파이썬', 'python'],
  ['자바', 'java'],
  ['리액트', 'react'],
  ['재테크', 'investing', 'finance'],
  ['아이패드', 'ipad'],
  ['포토샵', 'photoshop'],
  ['엑셀', 'excel'],
  ['피아노', 'piano'],
  ['요가', 'yoga'],
];

/** The shortest query word that is read as the start of a member: two Hangul syllables or three letters. */
function longEnough(word: string): boolean {
  const length = [...word].length;
  return /\p{Script=Hangul}/u.test(word) ? length >= 2 : length >= 3;
}

/** The other members of every group that has a member starting with `word` (folded), none when it is short. */
export function searchAliases(word: string): string[] {
  if (!longEnough(word)) return [];
  const found = new Set<string>();
  for (const group of SEARCH_ALIASES) {
    if (!group.some((member) => member.startsWith(word))) continue;
    for (const member of group) if (!member.startsWith(word)) found.add(member);
  }
  return [...found];
}
