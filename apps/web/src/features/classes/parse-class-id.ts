import { MAX_ID } from '@sea/contract/ids';

/** The class id of a route parameter, or null when it is missing or cannot be an id (see MAX_ID). */
export function parseClassId(raw: string | undefined): number | null {
  if (raw === undefined || !/^\d+$/.test(raw)) return null;
  const id = Number(raw);
  return Number.isSafeInteger(id) && id > 0 && id <= MAX_ID ? id : null;
}
