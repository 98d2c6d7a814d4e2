import { once } from 'node:events';
import net from 'node:net';

/** A loopback port free now: one the system gave a listener on port 0, released again. */
export async function freePort(): Promise<number> {
  const probe = net.createServer().listen(0, '127.0.0.1');
  await once(probe, 'listening'); // rejects on the probe's 'error'
  const { port } = probe.address() as net.AddressInfo;
  await new Promise((resolve) => probe.close(resolve));
  return port;
}
