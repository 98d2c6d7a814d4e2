import { createHmac, timingSafeEqual } from 'node:crypto';
import { ROUTES, toPath } from '@sea/contract/paths';

/**
 * Short-lived signed URLs of a material's files, as a replay's (replays/replay-urls.ts): an HMAC-SHA256 with a
 * key derived from the JWT secret for this use only, over the material, the scope and the expiry. The scope
 * keeps the two apart: a page image's signature (`pages`) does not open the PDF (`pdf`), which students get only
 * when the teacher allows downloads. The expiry is rounded up to the next full hour, so a page asking again
 * within the hour gets the same URLs (the browser's cache keeps the images).
 */
export const MATERIAL_URL_MIN_S = 3 * 60 * 60;
const ROUND_S = 60 * 60;

export type MaterialScope = 'pages' | 'pdf';

/** The files of a material's folder: the PDF, and each page's image and thumbnail. */
export const MATERIAL_FILES = {
  pdf: 'material.pdf',
  page: (number: number) => `page-${number}.webp`,
  thumbnail: (number: number) => `thumb-${number}.webp`,
};

/** The scope a file name needs, or null for a name that is none of a material's files. */
export function scopeOf(file: string): MaterialScope | null {
  if (file === MATERIAL_FILES.pdf) return 'pdf';
  return /^(page|thumb)-[1-9]\d{0,3}\.webp$/.test(file) ? 'pages' : null;
}

export class MaterialUrls {
  readonly #key: Buffer;
  readonly #now: () => number;

  constructor(secret: string, now: () => number = Date.now) {
    this.#key = createHmac('sha256', secret).update('sea:material-files:v1').digest();
    this.#now = now;
  }

  /** The signed site-relative URL of one file of a material. */
  url(materialId: number, file: string): string {
    const scope = scopeOf(file);
    if (scope === null) throw new Error(`Not a material file: ${file}`);
    const nowS = Math.floor(this.#now() / 1000);
    const exp = Math.ceil((nowS + MATERIAL_URL_MIN_S) / ROUND_S) * ROUND_S;
    const sig = this.#mac(materialId, scope, exp);
    return `${toPath(ROUTES.materialFile, { materialId, file })}?exp=${exp}&sig=${sig}`;
  }

  /** True when `sig` was made here for this material and the file's scope, and `exp` has not passed. */
  verify(materialId: number, file: string, exp: unknown, sig: unknown): boolean {
    const scope = scopeOf(file);
    if (scope === null || typeof exp !== 'string' || typeof sig !== 'string') return false;
    if (!/^\d{1,12}$/.test(exp) || Number(exp) * 1000 <= this.#now()) return false;
    const expected = Buffer.from(this.#mac(materialId, scope, Number(exp)));
    const given = Buffer.from(sig);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  #mac(materialId: number, scope: MaterialScope, exp: number): string {
    return createHmac('sha256', this.#key).update(`${materialId}.${scope}.${exp}`).digest('base64url');
  }
}
