const DATE_FORMAT = new Intl.DateTimeFormat('ko-KR', {
  year: 'numeric',
  month: 'long',
  day: 'numeric',
  weekday: 'short',
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** A moment in the viewer's time zone: '2026년 11월 25일 (수) 19:00'. The ISO text for a bad date. */
export function formatDateTime(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return iso;
  const parts = Object.fromEntries(DATE_FORMAT.formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.year}년 ${parts.month} ${parts.day}일 (${parts.weekday}) ${parts.hour}:${parts.minute}`;
}

/** The day of a moment in the viewer's time zone: '2026년 11월 25일 (수)'. Blank for a bad date. */
export function formatDay(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const parts = Object.fromEntries(DATE_FORMAT.formatToParts(date).map((part) => [part.type, part.value]));
  return `${parts.year}년 ${parts.month} ${parts.day}일 (${parts.weekday})`;
}

const TIME_FORMAT = new Intl.DateTimeFormat('ko-KR', {
  hour: '2-digit',
  minute: '2-digit',
  hourCycle: 'h23',
});

/** The time of day of a moment in the viewer's time zone: '19:05'. Blank for a bad date. */
export function formatTimeOfDay(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : TIME_FORMAT.format(date);
}

/** A length in seconds in words: '45초', '12분', '1시간 5분' (seconds are left out past a minute). */
export function formatDuration(totalSeconds: number): string {
  const seconds = Math.max(0, Math.round(totalSeconds));
  if (seconds < 60) return `${seconds}초`;
  const hours = Math.floor(seconds / 3600);
  const minutes = Math.floor((seconds % 3600) / 60);
  if (hours === 0) return `${minutes}분`;
  return minutes === 0 ? `${hours}시간` : `${hours}시간 ${minutes}분`;
}

/** Time left, to the second under an hour: '45초', '4분 12초', '5분'; longer as formatDuration says it. */
export function formatCountdown(totalSeconds: number): string {
  const seconds = Math.max(0, Math.ceil(totalSeconds));
  if (seconds >= 3600) return formatDuration(seconds);
  const m = Math.floor(seconds / 60);
  const s = seconds % 60;
  if (m === 0) return `${s}초`;
  return s === 0 ? `${m}분` : `${m}분 ${s}초`;
}

/** A position in the video as the player shows it: '4:05', '1:02:09'. */
export function formatClock(totalSeconds: number): string {
  const seconds = Math.max(0, Math.floor(totalSeconds));
  const h = Math.floor(seconds / 3600);
  const m = Math.floor((seconds % 3600) / 60);
  const s = String(seconds % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${s}` : `${m}:${s}`;
}
