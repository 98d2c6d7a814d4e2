/**
 * What forwarding one packet to one student costs on this thread: `RtpForwarder` through werift senders with
 * real AES-GCM SRTP sessions and a real UDP socket sending on loopback to a sink in a worker thread, the way
 * the SFU's per-student loop runs (every student renumbered, as after a layer switch). Prints the thread's
 * CPU time per forwarded packet, median of the rounds. Not a test.
 *
 *   npm exec -- node bench/sfu/forward-cost.ts [--students 100] [--packets 2000] [--rounds 7]
 *   npm exec -- node --cpu-prof --cpu-prof-dir=/tmp/fwd-prof bench/sfu/forward-cost.ts   # where the time goes
 */
import { createSocket } from 'node:dgram';
import { randomBytes } from 'node:crypto';
import { parseArgs } from 'node:util';
import { Worker } from 'node:worker_threads';
import {
  ProtectionProfileAeadAes128Gcm,
  RTP_EXTENSION_URI,
  RtpHeader,
  RtpPacket,
  SrtpSession,
  type RTCRtpSender,
} from 'werift';
import { Vp8Rewriter } from '../../apps/media/src/forwarding/vp8-rewriter.ts';
import { RtpForwarder } from '../../apps/media/src/rtc/rtp-forwarder.ts';
import { installSrtpKeyObjects } from '../../apps/media/src/rtc/srtp-key-objects.ts';
import { connectedSender } from '../../apps/media/test/student-sender.ts';

const { values } = parseArgs({
  options: {
    students: { type: 'string', default: '100' },
    packets: { type: 'string', default: '2000' },
    rounds: { type: 'string', default: '7' },
  },
});
const STUDENTS = Number(values.students);
const PACKETS = Number(values.packets);
const ROUNDS = Number(values.rounds);

installSrtpKeyObjects();

/** A sink on loopback in a worker thread: the kernel's receiving work lands on this thread, as in the SFU. */
const sink = new Worker(
  `const { parentPort } = require('node:worker_threads');
   const s = require('node:dgram').createSocket('udp4');
   let n = 0;
   s.on('message', () => { n += 1; });
   s.bind(0, '127.0.0.1', () => parentPort.postMessage(s.address().port));
   parentPort.on('message', () => parentPort.postMessage(n));`,
  { eval: true },
);
const sinkPort = await new Promise<number>((resolve) => sink.once('message', resolve));
const socket = createSocket({ type: 'udp4', sendBufferSize: 4 * 1024 * 1024 });
await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));

function student(index: number): RTCRtpSender {
  const srtp = new SrtpSession({
    keys: {
      localMasterKey: randomBytes(16),
      localMasterSalt: randomBytes(12),
      remoteMasterKey: randomBytes(16),
      remoteMasterSalt: randomBytes(12),
    },
    profile: ProtectionProfileAeadAes128Gcm,
  });
  return connectedSender({
    ssrc: 0x1000_0000 + index,
    mid: '0',
    payloadType: 96,
    headerExtensions: [
      { id: 4, uri: RTP_EXTENSION_URI.sdesMid },
      { id: 2, uri: RTP_EXTENSION_URI.absSendTime },
    ],
    fields: { rtcpRunning: true }, // no sender reports in this measurement
    srtp,
    socket,
    remote: ['127.0.0.1', sinkPort],
  });
}

/** A teacher's top webcam layer: VP8 with a 15-bit picture id and TL0PICIDX, about 1 100 bytes a packet. */
function teacherPacket(i: number): RtpPacket {
  const payload = randomBytes(1100);
  payload[0] = 0x90; // X, S
  payload[1] = 0xe0; // I, L, T
  payload.writeUInt16BE(0x8000 | (i >> 2), 2); // M + picture id
  payload[4] = (i >> 4) & 0xff; // TL0PICIDX
  payload[5] = 0x00;
  return new RtpPacket(
    new RtpHeader({
      payloadType: 96,
      ssrc: 0x1234,
      sequenceNumber: i & 0xffff,
      timestamp: 3000 * (i >> 2),
      marker: i % 4 === 3,
    }),
    payload,
  );
}

const students = Array.from({ length: STUDENTS }, (_, i) => ({
  forwarder: new RtpForwarder(student(i)),
  vp8: new Vp8Rewriter(),
}));
const packets = Array.from({ length: 256 }, (_, i) => teacherPacket(i));

const perPacketUs: number[] = [];
let sent = 0;
for (let round = 0; round < ROUNDS; round += 1) {
  const start = process.threadCpuUsage();
  for (let p = 0; p < PACKETS; p += 1) {
    const packet = packets[(round * PACKETS + p) % packets.length];
    if (!packet) throw new Error('no packet');
    for (const { forwarder, vp8 } of students) forwarder.forward(packet, vp8.descriptorFor(packet.payload));
    sent += STUDENTS;
    // Let the datagrams go and the sink read, as the SFU's event loop does between packets.
    if (p % 16 === 15) await new Promise((resolve) => setImmediate(resolve));
  }
  const used = process.threadCpuUsage(start);
  perPacketUs.push((used.user + used.system) / (PACKETS * STUDENTS));
}
await new Promise((resolve) => setTimeout(resolve, 200));
sink.postMessage('count');
const received = await new Promise<number>((resolve) => sink.once('message', resolve));
perPacketUs.sort((a, b) => a - b);
const median = perPacketUs[Math.floor(perPacketUs.length / 2)] ?? NaN;
console.log(
  `forward-cost: ${median.toFixed(2)} µs of this thread's CPU per packet and student (median of ${ROUNDS} ` +
    `rounds: ${perPacketUs.map((v) => v.toFixed(2)).join(', ')}); ${STUDENTS} students, ${sent} sent, ` +
    `${received} received by the sink`,
);
socket.close();
await sink.terminate();
