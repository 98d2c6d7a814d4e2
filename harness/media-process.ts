import { freePort } from '@sea/service-kit/test/free-port';
import { startService, type RunningServer } from './server-process.ts';

/** What the API server needs to hand out live tickets for a media service started by {@link startMedia}. */
export type MediaLink = { mediaUrl: string; port: number; secret: string };

/** Chooses the media service's loopback address and the secret it shares with the API server. */
export async function planMedia(): Promise<MediaLink> {
  const port = await freePort();
  const secret = `e2e-media-secret-${crypto.randomUUID()}`;
  return { mediaUrl: `http://127.0.0.1:${port}`, port, secret };
}

/**
 * Starts the real media service (`apps/media/src/main.ts`) for the API server at `apiUrl`: media on loopback
 * only (announced and listening on 127.0.0.1, no ICE servers), the shared secret of `link`; `env` adds
 * settings (e.g. `MEDIA_WORKERS`), never replacing the loopback ones.
 */
export function startMedia(
  link: MediaLink,
  apiUrl: string,
  env: NodeJS.ProcessEnv = {},
): Promise<RunningServer> {
  return startService('apps/media/src/main.ts', link.mediaUrl, {
    ...env,
    MEDIA_HOST: '127.0.0.1',
    MEDIA_PORT: String(link.port),
    API_URL: apiUrl,
    PUBLIC_URL: apiUrl,
    MEDIA_ANNOUNCED_IP: '127.0.0.1',
    MEDIA_LISTEN_IP: '127.0.0.1',
    ICE_SERVERS: '[]',
    MEDIA_SECRET: link.secret,
  });
}
