import { createHash, createHmac, randomBytes } from 'node:crypto';
import dgram from 'node:dgram';
import net from 'node:net';
import tls from 'node:tls';

/** STUN/TURN (RFC 5389, 5766): just enough to ask a TURN server for a relayed address. */
const MAGIC_COOKIE = 0x2112a442;
const ALLOCATE = 0x0003;
const ALLOCATE_SUCCESS = 0x0103;
const ALLOCATE_ERROR = 0x0113;
const ATTR = {
  username: 0x0006,
  messageIntegrity: 0x0008,
  errorCode: 0x0009,
  realm: 0x0014,
  nonce: 0x0015,
  xorRelayedAddress: 0x0016,
  requestedTransport: 0x0019,
  fingerprint: 0x8028,
} as const;

type Attributes = Map<number, Buffer>;

function attribute(type: number, value: Buffer): Buffer {
  const padded = Buffer.alloc(4 + Math.ceil(value.length / 4) * 4);
  padded.writeUInt16BE(type, 0);
  padded.writeUInt16BE(value.length, 2);
  value.copy(padded, 4);
  return padded;
}

function message(type: number, id: Buffer, attributes: Buffer[], integrityKey?: Buffer): Buffer {
  let body = Buffer.concat(attributes);
  const header = (length: number) => {
    const h = Buffer.alloc(20);
    h.writeUInt16BE(type, 0);
    h.writeUInt16BE(length, 2);
    h.writeUInt32BE(MAGIC_COOKIE, 4);
    id.copy(h, 8);
    return h;
  };
  if (integrityKey) {
    // The HMAC covers the message up to the attribute, with the length counting the attribute itself.
    const hmac = createHmac('sha1', integrityKey)
      .update(Buffer.concat([header(body.length + 24), body]))
      .digest();
    body = Buffer.concat([body, attribute(ATTR.messageIntegrity, hmac)]);
  }
  return Buffer.concat([header(body.length), body]);
}

function parse(data: Buffer): { type: number; id: Buffer; attributes: Attributes } {
  const type = data.readUInt16BE(0);
  const length = data.readUInt16BE(2);
  const attributes: Attributes = new Map();
  for (let at = 20; at + 4 <= 20 + length;) {
    const attrType = data.readUInt16BE(at);
    const attrLength = data.readUInt16BE(at + 2);
    attributes.set(attrType, data.subarray(at + 4, at + 4 + attrLength));
    at += 4 + Math.ceil(attrLength / 4) * 4;
  }
  return { type, id: data.subarray(8, 20), attributes };
}

/** A STUN message exchange over one transport: send a request, get its answer. */
type Exchange = { ask(request: Buffer): Promise<Buffer>; close(): void };

function udpExchange(host: string, port: number): Exchange {
  const socket = dgram.createSocket('udp4');
  return {
    ask: (request) =>
      new Promise((resolve, reject) => {
        socket.once('message', resolve);
        socket.once('error', reject);
        socket.send(request, port, host);
      }),
    close: () => socket.close(),
  };
}

/** STUN over a stream (TCP or TLS): messages back to back, each 20 bytes of header plus its length. */
function streamExchange(socket: net.Socket): Exchange {
  let buffered = Buffer.alloc(0);
  let waiting: ((data: Buffer) => void) | null = null;
  socket.on('data', (chunk: Buffer) => {
    buffered = Buffer.concat([buffered, chunk]);
    if (buffered.length >= 20 && buffered.length >= 20 + buffered.readUInt16BE(2)) {
      const size = 20 + buffered.readUInt16BE(2);
      const whole = buffered.subarray(0, size);
      buffered = buffered.subarray(size);
      waiting?.(whole);
    }
  });
  return {
    ask: (request) =>
      new Promise((resolve, reject) => {
        waiting = resolve;
        socket.once('error', reject);
        socket.write(request);
      }),
    close: () => socket.destroy(),
  };
}

async function connected(socket: net.Socket, event: 'connect' | 'secureConnect'): Promise<net.Socket> {
  await new Promise<void>((resolve, reject) => {
    socket.once(event, () => resolve());
    socket.once('error', reject);
  });
  return socket;
}

export type TurnTarget = {
  transport: 'udp' | 'tcp' | 'tls';
  host: string;
  port: number;
  username: string;
  password: string;
  /** For `tls`: the certificate to trust (the self-signed one). */
  ca?: string;
};

/**
 * Asks a TURN server for a UDP relay, as a browser's ICE agent does: an Allocate, the server's 401 with realm
 * and nonce, then the Allocate again with long-term credentials. Resolves the relayed address (IP and port)
 * the server allocated; rejects with the server's error otherwise.
 */
export async function turnAllocate(
  target: TurnTarget,
  timeoutMs = 5_000,
): Promise<{ ip: string; port: number }> {
  const exchange =
    target.transport === 'udp'
      ? udpExchange(target.host, target.port)
      : streamExchange(
          target.transport === 'tcp'
            ? await connected(net.connect(target.port, target.host), 'connect')
            : await connected(
                tls.connect({ host: target.host, port: target.port, ca: target.ca }),
                'secureConnect',
              ),
        );
  const timer = setTimeout(() => exchange.close(), timeoutMs);
  try {
    const udp = Buffer.from([17, 0, 0, 0]); // REQUESTED-TRANSPORT: UDP
    const first = parse(
      await exchange.ask(message(ALLOCATE, randomBytes(12), [attribute(ATTR.requestedTransport, udp)])),
    );
    if (first.type !== ALLOCATE_ERROR) throw new Error(`expected a 401 challenge, got type ${first.type}`);
    const realm = first.attributes.get(ATTR.realm) ?? Buffer.alloc(0);
    const nonce = first.attributes.get(ATTR.nonce) ?? Buffer.alloc(0);
    const key = createHash('md5')
      .update(`${target.username}:${realm.toString()}:${target.password}`)
      .digest();
    const answer = parse(
      await exchange.ask(
        message(
          ALLOCATE,
          randomBytes(12),
          [
            attribute(ATTR.requestedTransport, udp),
            attribute(ATTR.username, Buffer.from(target.username)),
            attribute(ATTR.realm, realm),
            attribute(ATTR.nonce, nonce),
          ],
          key,
        ),
      ),
    );
    if (answer.type !== ALLOCATE_SUCCESS) {
      const code = answer.attributes.get(ATTR.errorCode);
      const reason = code
        ? `${code[2] ?? 0}${String(code[3] ?? 0).padStart(2, '0')} ${code.subarray(4).toString()}`
        : '';
      throw new Error(`TURN Allocate refused: ${reason}`);
    }
    const relayed = answer.attributes.get(ATTR.xorRelayedAddress);
    if (!relayed) throw new Error('no XOR-RELAYED-ADDRESS');
    const port = relayed.readUInt16BE(2) ^ (MAGIC_COOKIE >>> 16);
    const ip = [0, 1, 2, 3]
      .map((i) => (relayed[4 + i] ?? 0) ^ ((MAGIC_COOKIE >>> (24 - 8 * i)) & 0xff))
      .join('.');
    return { ip, port };
  } finally {
    clearTimeout(timer);
    exchange.close();
  }
}
