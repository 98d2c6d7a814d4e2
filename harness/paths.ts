import path from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder. */
export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

/** Screenshots and other run output (git-ignored). */
export const ARTIFACTS = path.join(REPO_ROOT, 'artifacts/e2e');
