import { describe, expect, it } from 'vitest';
import { DtlsClient, DtlsServer, DtlsSocket } from 'werift';
import { installDtlsHelloOnce } from './dtls-hello-once.ts';

type Fragment = {
  msg_type: number;
  message_seq: number;
  fragment_offset: number;
  fragment_length: number;
  length: number;
};
const fragment = (msg_type: number, message_seq: number): Fragment => ({
  msg_type,
  message_seq,
  fragment_offset: 0,
  fragment_length: 10,
  length: 10,
});

/** werift's own reassembly step on a bare socket of `cls` (no transport: only this method is called). */
function socketOf(cls: typeof DtlsServer | typeof DtlsClient) {
  const socket = Object.create(cls.prototype) as object;
  (socket as { bufferFragmentedHandshakes: Fragment[] }).bufferFragmentedHandshakes = [];
  const handle = (
    DtlsSocket.prototype as unknown as { handleFragmentHandshake: (m: Fragment[]) => Fragment[] }
  ).handleFragmentHandshake;
  return (messages: Fragment[]) => handle.call(socket, messages);
}

describe('installDtlsHelloOnce', () => {
  installDtlsHelloOnce();

  it('drops a retransmitted ClientHello on a server, keeping the first of each message_seq', () => {
    const handle = socketOf(DtlsServer);
    expect(handle([fragment(1, 0)])).toHaveLength(1);
    expect(handle([fragment(1, 1)])).toHaveLength(1);
    expect(handle([fragment(1, 1)])).toEqual([]);
    expect(handle([fragment(1, 0)])).toEqual([]);
  });

  it('lets every other handshake message through, retransmitted or not (werift answers a lost flight 6 so)', () => {
    const handle = socketOf(DtlsServer);
    expect(handle([fragment(16, 2), fragment(20, 3)])).toHaveLength(2);
    expect(handle([fragment(16, 2), fragment(20, 3)])).toHaveLength(2);
  });

  it('leaves clients alone', () => {
    const handle = socketOf(DtlsClient);
    expect(handle([fragment(1, 1)])).toHaveLength(1);
    expect(handle([fragment(1, 1)])).toHaveLength(1);
  });
});
