import { createPeerConnection, type RtcOptions } from './peer-connection.ts';

/**
 * Runs werift's offer code once, on a connection that is never used, so that a thread's first student does not
 * wait while it is compiled: the first `createOffer` of a thread took 23-37 ms (bench/sfu, a run's first
 * student's `consume`), the next ones under 1 ms. An offer that is not set as the local description gathers
 * nothing: no socket is opened. A failure only leaves the code cold.
 */
export async function warmUpOffers(options: RtcOptions): Promise<void> {
  const pc = createPeerConnection(options, 'subscriber');
  try {
    pc.addTransceiver('video', { direction: 'sendonly' });
    pc.addTransceiver('audio', { direction: 'sendonly' });
    await pc.createOffer();
  } catch {
    // Cold is only slower.
  } finally {
    await pc.close().catch(() => undefined);
  }
}
