const KOREAN_DATE = new Intl.DateTimeFormat('ko-KR', { year: 'numeric', month: 'long', day: 'numeric' });

/** An ISO timestamp as a Korean date ('2026년 11월 21일'); an unreadable value is shown as it came. */
export function formatAppliedDate(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? iso : KOREAN_DATE.format(date);
}
