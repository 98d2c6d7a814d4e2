/**
 * Saves `blob` as a download named `name`. Routes that need the bearer token cannot be plain links: the app's
 * client fetches them and the browser saves the blob.
 */
export function saveFile(blob: Blob, name: string): void {
  const url = URL.createObjectURL(blob);
  try {
    const link = document.createElement('a');
    link.href = url;
    link.download = name;
    document.body.append(link);
    link.click();
    link.remove();
  } finally {
    // The click has handed the blob to the download; the URL is not needed past it.
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }
}

/** The byte order mark that tells spreadsheet programs the file is UTF-8 (so they show the Korean). */
const UTF8_BOM = '\uFEFF';

/**
 * Saves a CSV file's text (as the app's client read it) with its byte order mark: reading the body as text
 * drops the server's, so it is put back.
 */
export function saveCsv(text: unknown, name: string): void {
  if (typeof text !== 'string') throw new Error('A CSV route answered something else than text');
  const body = text.startsWith(UTF8_BOM) ? text.slice(1) : text;
  saveFile(new Blob([UTF8_BOM, body], { type: 'text/csv;charset=utf-8' }), name);
}
