/** Build-time settings of the web app, checked once when the app starts. */
export type Env = {
  /** Origin of the API server; empty means the origin that served the app (the normal case). */
  apiOrigin: string;
};

/** Reads the Vite variables. Plain checks instead of zod, which the first page's JavaScript leaves out. */
export function parseEnv(source: Record<string, unknown>): Env {
  const origin = source.VITE_API_ORIGIN ?? '';
  if (typeof origin !== 'string' || (origin !== '' && !/^https?:\/\/[^/]+\/?$/.test(origin))) {
    throw new Error(
      `VITE_API_ORIGIN must be empty or an origin like http://host:5000, got ${String(origin)}`,
    );
  }
  return { apiOrigin: origin.replace(/\/$/, '') };
}

export const env: Env = parseEnv(import.meta.env);
