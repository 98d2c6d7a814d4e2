import { isDtls, type RTCDtlsTransport } from 'werift';

/** At most this many early DTLS datagrams are kept (a ClientHello and the browser's repeats of it). */
const MAX_EARLY = 8;

/** What of werift 0.25.2's DTLS transport this reads (private: `dtls-early-packets.test.ts` runs it on werift). */
type EarlyDtlsTransport = {
  state: string;
  onStateChange: { subscribe(listener: (state: string) => void): { unSubscribe(): void } };
  iceTransport: {
    connection: { onData: { subscribe(listener: (data: Buffer) => void): { unSubscribe(): void } } };
  };
  /** The DTLS socket, made by `start()`; its transport's `onData` takes each datagram. */
  dtls?: { transport: { socket: { onData(data: Buffer): void } } };
};

/**
 * Keeps the DTLS datagrams that reach `transport`'s connection before werift starts its DTLS transport, and
 * hands them to the DTLS socket as soon as it exists. Returns the function that stops watching.
 *
 * Why: werift starts the DTLS server only once ICE is nominated, after the student's answer is applied, and drops
 * what came before. Chromium sends its ClientHello as soon as one of its checks is answered, which the lite SFU
 * does before it has the answer; that first ClientHello was lost, and Chromium sent it again 50, 150, 350 ms
 * later: the DTLS step of a first frame took 100-300 ms where the handshake itself takes some 20 (bench/sfu).
 */
export function keepEarlyDtls(transport: RTCDtlsTransport): () => void {
  const dtls = transport as unknown as EarlyDtlsTransport;
  if (dtls.state !== 'new') return () => undefined;
  let early: Buffer[] = [];
  const data = dtls.iceTransport.connection.onData.subscribe((datagram) => {
    if (dtls.state !== 'new' || !isDtls(datagram)) return;
    if (early.length < MAX_EARLY) early.push(datagram);
  });
  const state = dtls.onStateChange.subscribe((next) => {
    if (next === 'new') return;
    stop();
    if (next !== 'connecting' || early.length === 0) return;
    const kept = early;
    early = [];
    // `start()` makes the socket right after announcing `connecting`, in the same turn.
    queueMicrotask(() => {
      const socket = dtls.dtls?.transport.socket;
      if (dtls.state === 'connecting' && socket) for (const datagram of kept) socket.onData(datagram);
    });
  });
  function stop(): void {
    data.unSubscribe();
    state.unSubscribe();
  }
  return () => {
    early = [];
    stop();
  };
}
