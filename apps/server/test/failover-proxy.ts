import net from 'node:net';

/**
 * A loopback TCP proxy in front of several servers, as a reverse proxy with an upstream group: each new
 * connection goes to the first server that accepts it, so once one stops listening the next ones take over.
 */
export class FailoverProxy {
  readonly #targets: readonly number[];
  readonly #sockets = new Set<net.Socket>();
  #server: net.Server | null = null;
  port = 0;

  /** `targets`: loopback ports, in order of preference. */
  constructor(targets: readonly number[]) {
    this.#targets = targets;
  }

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      this.#track(client);
      client.pause();
      this.#connect(client, 0);
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(0, '127.0.0.1', () => resolve());
    });
    this.port = (server.address() as net.AddressInfo).port;
    this.#server = server;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const socket of this.#sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }

  #connect(client: net.Socket, index: number): void {
    const port = this.#targets[index];
    if (port === undefined || client.destroyed) {
      client.destroy();
      return;
    }
    const upstream = net.connect(port, '127.0.0.1');
    const refused = (): void => this.#connect(client, index + 1);
    upstream.once('error', refused);
    upstream.once('connect', () => {
      upstream.off('error', refused);
      this.#track(upstream);
      // A reset on one side ends both; nothing else to report in a test proxy.
      for (const socket of [client, upstream])
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      client.pipe(upstream).pipe(client);
      client.resume();
    });
  }

  #track(socket: net.Socket): void {
    this.#sockets.add(socket);
    // Without a listener a reset would be thrown; the peer socket is ended by the pairing's own listener.
    socket.on('error', () => socket.destroy());
    socket.on('close', () => this.#sockets.delete(socket));
  }
}
