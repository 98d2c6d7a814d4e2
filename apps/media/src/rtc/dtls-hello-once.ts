import { DtlsServer, DtlsSocket } from 'werift';

type Fragment = { msg_type: number; message_seq: number; fragment_offset: number };
type Handle = (this: DtlsSocket, messages: Fragment[]) => Fragment[];

const CLIENT_HELLO = 1;
const INSTALLED = Symbol.for('sea.media.dtlsHelloOnce');
const seen = new WeakMap<DtlsSocket, Set<string>>();

/**
 * Makes werift's DTLS server handle each ClientHello once: a retransmitted one (same message_seq) is dropped.
 *
 * Why: werift (0.25.2) answers every ClientHello that carries the right cookie by running its flight 4 again,
 * with a new server random and a new ECDHE key. A client whose first answer came late (a loaded worker: the
 * client retransmits after 500 ms) goes on with the first keys while the server now holds the second, and the
 * handshake never completes: the student stays connected over ICE and never gets media (issue 16: 32 of 100 light
 * students, `bench/sfu/README.md`). RFC 6347 (4.2.2) has a receiver discard a handshake message it has already
 * handled; the server's flight 4 is retransmitted by werift's own timer until the client's flight 5 arrives, so
 * nothing is lost by not answering the copy. Patching the prototype is the only hook: werift creates the sockets
 * inside its DTLS transport; node_modules is never edited. Idempotent.
 */
export function installDtlsHelloOnce(): void {
  const proto = DtlsSocket.prototype as unknown as { handleFragmentHandshake: Handle; [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  const handle = proto.handleFragmentHandshake;
  proto.handleFragmentHandshake = function (this: DtlsSocket, messages) {
    const handshakes = handle.call(this, messages);
    if (!(this instanceof DtlsServer)) return handshakes;
    let handled = seen.get(this);
    if (!handled) seen.set(this, (handled = new Set()));
    const known = handled;
    return handshakes.filter((h) => {
      if (h.msg_type !== CLIENT_HELLO) return true;
      const key = `${h.message_seq}:${h.fragment_offset}`;
      if (known.has(key)) return false;
      known.add(key);
      return true;
    });
  };
  proto[INSTALLED] = true;
}
