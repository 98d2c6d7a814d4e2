/**
 * The most combining marks (Unicode category M) any one character of `text` carries, a character being what a
 * person sees as one (an extended grapheme cluster). Text with marks stacked high above and below its letters
 * ('Zalgo') has many per character; written languages need few (Vietnamese two, Hangul in NFC none).
 */
export function mostMarksPerCharacter(text: string): number {
  const segmenter = new Intl.Segmenter('ko', { granularity: 'grapheme' });
  let most = 0;
  for (const { segment } of segmenter.segment(text)) {
    const marks = segment.match(/\p{M}/gu)?.length ?? 0;
    if (marks > most) most = marks;
  }
  return most;
}
