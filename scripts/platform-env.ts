import path from 'node:path';

/** What `npm start` gives both services: the environment, the ports, and what looked inconsistent. */
export type PlatformEnv = { env: NodeJS.ProcessEnv; port: number; mediaPort: number; warnings: string[] };

const DEFAULT_PORT = 5000;
const DEFAULT_MEDIA_PORT = 5001;
const EVERY_ADDRESS = ['0.0.0.0', '::', '[::]'];
const LOOPBACK = ['localhost', '127.0.0.1', '::1', '[::1]'];

/** The port of a URL (its scheme's default when it names none), or null when it is no URL. */
function portOf(url: string): number | null {
  try {
    const parsed = new URL(url);
    return Number(parsed.port || (parsed.protocol === 'https:' ? 443 : 80));
  } catch {
    return null;
  }
}

function hostOf(url: string): string | null {
  try {
    return new URL(url).hostname;
  } catch {
    return null;
  }
}

/**
 * An address of a service listening on `host` that a process on the same machine can call: `localhost` as
 * the server's default HOST is (Node's fetch tries each of its addresses), loopback for every address.
 */
function localAddress(host: string | undefined): string {
  if (host === undefined || host === '') return 'localhost';
  if (EVERY_ADDRESS.includes(host)) return '127.0.0.1';
  return host.includes(':') && !host.startsWith('[') ? `[${host}]` : host;
}

/**
 * Derives, from what is given (PORT above all), every address the two services must agree on, so that
 * `PORT=8080 npm start` works as `npm start` does: the media service reports to the API server on PORT
 * (API_URL), the web app's origin follows PORT (PUBLIC_URL), and MEDIA_URL (what browsers are sent to) names
 * the port the media service listens on (MEDIA_PORT). Whatever is given is kept; given values that contradict
 * each other are listed in `warnings`.
 */
export function platformEnv(given: NodeJS.ProcessEnv, root: string): PlatformEnv {
  const warnings: string[] = [];
  const port = Number(given.PORT || DEFAULT_PORT);
  const mediaUrlPort = given.MEDIA_URL ? portOf(given.MEDIA_URL) : null;
  let mediaPort = Number(given.MEDIA_PORT || mediaUrlPort || DEFAULT_MEDIA_PORT);
  if (!given.MEDIA_PORT && !given.MEDIA_URL && mediaPort === port) mediaPort = port + 1;
  const apiUrl = given.API_URL || `http://${localAddress(given.HOST)}:${port}`;
  const mediaUrl = given.MEDIA_URL || `http://localhost:${mediaPort}`;

  const apiHost = hostOf(apiUrl);
  if (given.API_URL && apiHost && LOOPBACK.includes(apiHost) && portOf(apiUrl) !== port) {
    warnings.push(
      `API_URL=${apiUrl} names another port than the API server's (PORT=${port}): the media service ` +
        'will not reach it. Leave API_URL unset to derive it.',
    );
  }
  const mediaHost = hostOf(mediaUrl);
  if (given.MEDIA_URL && given.MEDIA_PORT && mediaHost && LOOPBACK.includes(mediaHost)) {
    if (mediaUrlPort !== mediaPort) {
      warnings.push(
        `MEDIA_URL=${mediaUrl} names port ${mediaUrlPort} but the media service listens on MEDIA_PORT=` +
          `${mediaPort}: browsers will not reach it. Set one of them only.`,
      );
    }
  }
  if (mediaPort === port) {
    warnings.push(`MEDIA_PORT=${mediaPort} is the API server's PORT too: the media service cannot listen.`);
  }
  return {
    port,
    mediaPort,
    warnings,
    env: {
      ...given,
      DATA_DIR: given.DATA_DIR || path.join(root, 'data'),
      DEMO_DATA: given.DEMO_DATA ?? 'true',
      PORT: String(port),
      PUBLIC_URL: given.PUBLIC_URL || `http://localhost:${port}`,
      API_URL: apiUrl,
      MEDIA_PORT: String(mediaPort),
      MEDIA_URL: mediaUrl,
    },
  };
}
