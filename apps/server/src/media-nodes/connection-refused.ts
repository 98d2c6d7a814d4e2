import net from 'node:net';

/**
 * Whether nothing listens at `url`'s host and port: a TCP connection to it is refused (at every address the
 * host name gives). Connected, timed out after `timeoutMs` or failed otherwise: false, since that says nothing
 * about the process behind it. A fresh connection each time (an HTTP client's pooled one could be a dead
 * socket of the process that was there). Never rejects.
 */
export function connectionRefused(url: string, timeoutMs: number): Promise<boolean> {
  const { hostname, port, protocol } = new URL(url);
  const host = hostname.replace(/^\[(.*)\]$/, '$1');
  return new Promise((resolve) => {
    const socket = net.connect({ host, port: Number(port || (protocol === 'https:' ? 443 : 80)) });
    const done = (refused: boolean) => {
      clearTimeout(timer);
      socket.destroy();
      resolve(refused);
    };
    const timer = setTimeout(() => done(false), timeoutMs);
    socket.once('connect', () => done(false));
    socket.once('error', (error) => done(refusedEverywhere(error)));
  });
}

function refusedEverywhere(error: unknown): boolean {
  const failure = error as { code?: unknown; errors?: { code?: unknown }[] };
  if (failure.code === 'ECONNREFUSED') return true;
  const errors = failure.errors ?? [];
  return errors.length > 0 && errors.every((e) => e.code === 'ECONNREFUSED');
}
