import type { FastifyReply } from 'fastify';
import type { ByteRange, FileStore } from '@sea/service-kit/storage/file-store';

/** What a stored file is sent with: its type and caching. */
export type SendOptions = { type: string; cacheControl: string };

/**
 * Sends a stored file from any driver, honouring one HTTP Range (`bytes=a-b`, `bytes=a-`, `bytes=-n`): 206 with
 * `Content-Range` for a range, 416 for one past the end, the whole file otherwise (a malformed or multi-range
 * header asks for the whole file, as RFC 9110 allows). Answers false when there is no such file.
 */
export async function sendStoredFile(
  reply: FastifyReply,
  files: FileStore,
  key: string,
  rangeHeader: string | undefined,
  options: SendOptions,
): Promise<boolean> {
  const info = await files.stat(key);
  if (info === null) return false;
  reply.header('accept-ranges', 'bytes').header('cache-control', options.cacheControl).type(options.type);
  const range = rangeHeader === undefined ? null : parseRange(rangeHeader, info.size);
  if (range === 'unsatisfiable') {
    await reply.code(416).header('content-range', `bytes */${info.size}`).send();
    return true;
  }
  const opened = await files.open(key, range ?? undefined);
  if (opened === null) return false;
  if (opened.range) {
    reply
      .code(206)
      .header('content-range', `bytes ${opened.range.start}-${opened.range.end}/${opened.size}`)
      .header('content-length', String(opened.range.end - opened.range.start + 1));
  } else {
    reply.header('content-length', String(opened.size));
  }
  await reply.send(opened.stream);
  return true;
}

/** One byte range of a file of `size` bytes; null: the whole file; `unsatisfiable`: it starts past the end. */
export function parseRange(header: string, size: number): ByteRange | null | 'unsatisfiable' {
  const match = /^bytes=(\d*)-(\d*)$/.exec(header.trim());
  if (!match) return null;
  const [, from = '', to = ''] = match;
  if (from === '' && to === '') return null;
  if (from === '') {
    const suffix = Number(to);
    if (suffix === 0) return 'unsatisfiable';
    return { start: Math.max(0, size - suffix), end: size - 1 };
  }
  const start = Number(from);
  const end = to === '' ? size - 1 : Math.min(Number(to), size - 1);
  if (start >= size) return 'unsatisfiable';
  if (end < start) return null;
  return { start, end };
}
