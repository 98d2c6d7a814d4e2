import { MATERIAL_KINDS, MAX_MATERIAL_BYTES } from '@sea/contract/materials';
import { MATERIAL_TEXTS as T } from './texts.ts';

/** Why a file cannot be uploaded, before sending it (the server checks again, by its content), or null. */
export function fileProblem(file: File): string | null {
  const extension = file.name.split('.').pop()?.toLowerCase() ?? '';
  if (!(MATERIAL_KINDS as readonly string[]).includes(extension)) return T.badKind;
  if (file.size > MAX_MATERIAL_BYTES) return T.tooLarge;
  return null;
}
