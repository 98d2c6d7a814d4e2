// What werift 0.25.2's WebM recorder does with packet loss, a stream that starts between keyframes and a
// simulcast layer switch, next to the media service's own recorder (apps/media/src/rtc/webm-writer.ts).
// Real VP8 (ffmpeg's libvpx, a keyframe every 3 s) is packetised as a browser would and fed to werift's public
// MediaRecorder through a track; each file is then read back with ffprobe and decoded with ffmpeg.
// Bounded: about 20 s of media in all, a few seconds to run. Needs ffmpeg and ffprobe.
//
//   npm exec -- node bench/recording/measure-werift-recorder.ts
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { MediaStreamTrack, RTCRtpCodecParameters, RtpHeader, RtpPacket } from 'werift';
import { MediaRecorder } from 'werift/nonstandard';
import { WebmWriter } from '../../apps/media/src/rtc/webm-writer.ts';

const run = promisify(execFile);
const FPS = 30;
const SECONDS = 6;
const MAX_PAYLOAD = 1_000;

type Frame = { key: boolean; data: Buffer };

/** `SECONDS` of a moving test picture, VP8 with a keyframe every 3 s, as IVF frames. */
async function encode(dir: string, size: string): Promise<Frame[]> {
  const file = path.join(dir, `${size}.ivf`);
  await run('ffmpeg', [
    ...['-hide_banner', '-loglevel', 'error', '-f', 'lavfi'],
    ...['-i', `testsrc2=size=${size}:rate=${FPS}`, '-t', String(SECONDS)],
    ...['-c:v', 'libvpx', '-b:v', '500k', '-g', String(FPS * 3), '-keyint_min', String(FPS * 3)],
    ...['-auto-alt-ref', '0', '-f', 'ivf', '-y', file],
  ]);
  const ivf = fs.readFileSync(file);
  const frames: Frame[] = [];
  for (let at = ivf.readUInt16LE(6); at + 12 <= ivf.length;) {
    const length = ivf.readUInt32LE(at);
    const data = ivf.subarray(at + 12, at + 12 + length);
    frames.push({ key: ((data[0] ?? 1) & 0x01) === 0, data });
    at += 12 + length;
  }
  return frames;
}

type Stream = { ssrc: number; seq: number; timestamp: number; pictureId: number };

/** RFC 7741 packets of one frame: descriptor with a 15-bit picture id, the marker on the last. */
function packetise(stream: Stream, frame: Frame, frameIndex: number): RtpPacket[] {
  const packets: RtpPacket[] = [];
  for (let offset = 0; offset < frame.data.length; offset += MAX_PAYLOAD) {
    const chunk = frame.data.subarray(offset, offset + MAX_PAYLOAD);
    const descriptor = Buffer.from([
      offset === 0 ? 0x90 : 0x80,
      0x80,
      0x80 | ((stream.pictureId >> 8) & 0x7f),
      stream.pictureId & 0xff,
    ]);
    const last = offset + MAX_PAYLOAD >= frame.data.length;
    const header = new RtpHeader({
      payloadType: 96,
      ssrc: stream.ssrc,
      sequenceNumber: stream.seq,
      timestamp: (stream.timestamp + frameIndex * (90_000 / FPS)) >>> 0,
      marker: last,
    });
    stream.seq = (stream.seq + 1) & 0xffff;
    packets.push(new RtpPacket(header, Buffer.concat([descriptor, chunk])));
  }
  stream.pictureId = (stream.pictureId + 1) & 0x7fff;
  return packets;
}

/** Deterministic loss: drops about `rate` of the packets (a fixed xorshift sequence). */
function lossy(rate: number): () => boolean {
  let state = 0x2545f491;
  return () => {
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 0x1_0000_0000 < rate;
  };
}

/** Feeds packets to werift's MediaRecorder (through a track, as a werift peer connection would). */
async function weriftRecorder(file: string, packets: RtpPacket[]): Promise<void> {
  const track = new MediaStreamTrack({
    kind: 'video',
    codec: new RTCRtpCodecParameters({ mimeType: 'video/VP8', clockRate: 90_000, payloadType: 96 }),
  });
  const recorder = new MediaRecorder({ path: file, numOfTracks: 1, disableNtp: true, disableLipSync: true });
  await recorder.addTrack(track);
  for (const packet of packets) track.onReceiveRtp.execute(packet);
  await recorder.stop();
}

/** Feeds packets to the media service's recorder core (keyframe-gated after a loss). */
async function ownRecorder(file: string, packets: RtpPacket[]): Promise<void> {
  const chunks: Buffer[] = [];
  const writer = new WebmWriter({ media: 'video', output: (bytes) => chunks.push(bytes) });
  for (const packet of packets) writer.write(packet);
  const patches = await writer.end();
  const bytes = Buffer.concat(chunks);
  for (const { position, bytes: patch } of patches) patch.copy(bytes, position);
  fs.writeFileSync(file, bytes);
}

async function measure(file: string) {
  const probe = await run('ffprobe', [
    ...['-v', 'error', '-show_entries', 'stream=width,height:packet=pts_time,flags', '-of', 'json', file],
  ]).catch((error: { stderr?: string }) => ({ stdout: '', stderr: error.stderr ?? 'failed' }));
  if (probe.stdout === '') return { unreadable: probe.stderr.trim(), bytes: fs.statSync(file).size };
  const facts = JSON.parse(probe.stdout) as {
    streams: { width?: number; height?: number }[];
    packets: { pts_time: string; flags: string }[];
  };
  const times = facts.packets.map((p) => Number(p.pts_time));
  let largestGap = 0;
  for (let i = 1; i < times.length; i += 1)
    largestGap = Math.max(largestGap, (times[i] ?? 0) - (times[i - 1] ?? 0));
  // Decoding errors (references to frames that are not there) as ffmpeg reports them.
  const decode = await run('ffmpeg', ['-hide_banner', '-v', 'error', '-i', file, '-f', 'null', '-']).catch(
    (error: { stderr?: string }) => ({ stderr: error.stderr ?? 'failed' }),
  );
  return {
    frames: facts.packets.length,
    keyframes: facts.packets.filter((p) => p.flags.startsWith('K')).length,
    firstIsKey: facts.packets[0]?.flags.startsWith('K') ?? false,
    lastPts: times.at(-1) ?? 0,
    largestGapS: Number(largestGap.toFixed(3)),
    header: `${facts.streams[0]?.width}x${facts.streams[0]?.height}`,
    decodeErrorLines: decode.stderr.split('\n').filter((line) => line.trim() !== '').length,
  };
}

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'werift-recorder-'));
try {
  const q = await encode(dir, '320x180');
  const h = await encode(dir, '640x360');
  const stream = (ssrc: number, seq: number, timestamp: number): Stream => ({
    ssrc,
    seq,
    timestamp,
    pictureId: ssrc & 0x7fff,
  });
  const all = (frames: Frame[], s: Stream, from = 0, to = frames.length) =>
    frames.slice(from, to).flatMap((frame, i) => packetise(s, frame, from + i));
  const lossyQ = () => {
    const drop = lossy(0.01);
    return all(q, stream(1, 100, 1_000)).filter(() => !drop());
  };
  const scenarios: { name: string; packets: () => RtpPacket[] }[] = [
    { name: 'clean, 6 s of q (keyframes at 0 and 3 s)', packets: () => all(q, stream(1, 100, 1_000)) },
    { name: '1% of packets lost, never retransmitted', packets: lossyQ },
    { name: 'joins at frame 20 (no keyframe until 3 s)', packets: () => all(q, stream(1, 100, 1_000), 20) },
    {
      name: 'layer switch q -> h at h keyframe (3 s), same track',
      packets: () => [...all(q, stream(1, 100, 1_000), 0, 90), ...all(h, stream(2, 40_000, 777_000), 90)],
    },
    {
      name: 'layer switch q -> h between keyframes (2 s), same track',
      packets: () => [...all(q, stream(1, 100, 1_000), 0, 60), ...all(h, stream(2, 40_000, 777_000), 60)],
    },
    {
      name: 'layer switch q -> h at 3 s, h numbered below q (seq wrapped)',
      packets: () => [...all(q, stream(1, 30_000, 1_000), 0, 90), ...all(h, stream(2, 100, 777_000), 90)],
    },
  ];
  for (const scenario of scenarios) {
    const werift = path.join(dir, 'werift.webm');
    await weriftRecorder(werift, scenario.packets());
    console.log(`${scenario.name}\n  werift MediaRecorder: ${JSON.stringify(await measure(werift))}`);
    const own = path.join(dir, 'own.webm');
    await ownRecorder(own, scenario.packets());
    console.log(`  media service WebmWriter: ${JSON.stringify(await measure(own))}`);
  }
} finally {
  fs.rmSync(dir, { recursive: true, force: true });
}
