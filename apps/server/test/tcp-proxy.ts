import net from 'node:net';

/**
 * A loopback TCP proxy to a database server that a test can cut: `stop()` drops every connection and stops
 * listening (new connections are refused, like a database that went down), `start()` listens again on the same
 * port. With `cutAtFirstQuery`, each connection is dropped when the client sends anything after its startup
 * message: the moment a connection dies while it is still being set up.
 */
export class TcpProxy {
  readonly #target: { host: string; port: number };
  readonly #cutAtFirstQuery: boolean;
  readonly #sockets = new Set<net.Socket>();
  #server: net.Server | null = null;
  port = 0;

  constructor(target: { host: string; port: number }, options: { cutAtFirstQuery?: boolean } = {}) {
    this.#target = target;
    this.#cutAtFirstQuery = options.cutAtFirstQuery ?? false;
  }

  async start(): Promise<void> {
    const server = net.createServer((client) => {
      const upstream = net.connect(this.#target.port, this.#target.host);
      for (const socket of [client, upstream]) {
        this.#sockets.add(socket);
        socket.on('close', () => this.#sockets.delete(socket));
        // A reset on one side ends both; nothing else to report in a test proxy.
        socket.on('error', () => {
          client.destroy();
          upstream.destroy();
        });
      }
      upstream.pipe(client);
      let chunks = 0;
      client.on('data', (chunk: Buffer) => {
        chunks += 1;
        if (this.#cutAtFirstQuery && chunks > 1) {
          client.destroy();
          upstream.destroy();
        } else if (!upstream.write(chunk)) {
          client.pause();
          upstream.once('drain', () => client.resume());
        }
      });
      client.on('end', () => upstream.end());
    });
    await new Promise<void>((resolve, reject) => {
      server.once('error', reject);
      server.listen(this.port, '127.0.0.1', () => resolve());
    });
    const address = server.address();
    if (address === null || typeof address === 'string') throw new Error('no TCP address');
    this.port = address.port;
    this.#server = server;
  }

  async stop(): Promise<void> {
    const server = this.#server;
    this.#server = null;
    for (const socket of this.#sockets) socket.destroy();
    if (server) await new Promise<void>((resolve) => server.close(() => resolve()));
  }
}
