/** A session's notes as the export writes them: the lecture's title and start, each note's replay time. */
export type ExportedSession = {
  title: string | null;
  startedAt: Date;
  notes: { offsetMs: number; content: string }[];
};

const seoul = new Intl.DateTimeFormat('sv-SE', {
  timeZone: 'Asia/Seoul',
  year: 'numeric',
  month: '2-digit',
  day: '2-digit',
  hour: '2-digit',
  minute: '2-digit',
});

/** `m:ss`, or `h:mm:ss` from an hour on: the time the player shows. */
export function playerTime(ms: number): string {
  const total = Math.floor(ms / 1000);
  const hours = Math.floor(total / 3600);
  const minutes = Math.floor(total / 60) % 60;
  const seconds = String(total % 60).padStart(2, '0');
  return hours > 0 ? `${hours}:${String(minutes).padStart(2, '0')}:${seconds}` : `${minutes}:${seconds}`;
}

/**
 * The notes of a class as Markdown: a heading per lecture (its title, else '강의', with its start in Korean time),
 * then each note as a list item led by its time in the replay; a note's own lines stay lines (indented into
 * its item). Lectures without notes are left out, oldest lecture first.
 */
export function notesMarkdown(className: string, sessions: readonly ExportedSession[]): string {
  const lines = [`# ${oneLine(className)} 메모`, ''];
  const kept = sessions.filter((session) => session.notes.length > 0);
  if (kept.length === 0) lines.push('아직 남긴 메모가 없어요.', '');
  for (const session of kept) {
    lines.push(`## ${oneLine(session.title ?? '강의')} (${seoul.format(session.startedAt)})`, '');
    for (const note of session.notes) {
      const [first = '', ...rest] = note.content.split(/\r?\n/);
      lines.push(`- **${playerTime(note.offsetMs)}** ${first}`, ...rest.map((line) => `  ${line}`));
    }
    lines.push('');
  }
  return lines.join('\n');
}

function oneLine(text: string): string {
  return text.replace(/\s+/g, ' ').trim();
}
