/**
 * A text made safe as a file name on every system: control characters and `"\/:*?<>|` become spaces, runs of
 * spaces one, at most 80 characters; `fallback` when nothing is left.
 */
export function safeFileName(text: string | null | undefined, fallback: string): string {
  const name = (text ?? '')
    // eslint-disable-next-line no-control-regex -- control characters are what is removed
    .replace(/[\u0000-\u001f\u007f"\\/:*?<>|]/g, ' ')
    .replace(/\s+/g, ' ')
    .trim()
    .slice(0, 80)
    .trim();
  return name || fallback;
}

/** `2026-12-02`: the day in Korea of a moment. */
export function seoulDay(at: Date): string {
  return new Intl.DateTimeFormat('sv-SE', { timeZone: 'Asia/Seoul' }).format(at);
}
