const formatter = new Intl.DateTimeFormat('ko-KR', { hour: 'numeric', minute: '2-digit' });

/** A message time as hour and minute in the Korean local format ("오후 3:05"); blank for a bad date. */
export function formatChatTime(iso: string): string {
  const date = new Date(iso);
  return Number.isNaN(date.getTime()) ? '' : formatter.format(date);
}
