/// <reference lib="dom" />
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { Browser } from 'playwright-core';

/** One stream to record: its size and the bitrate Chrome was seen sending it at (bits per second). */
export type TrackSpec = { name: string; width: number; height: number; bitrate: number };

/** Encoded VP8 frames of one stream, in order; the first is a keyframe. */
export type Vp8Track = { name: string; frames: { key: boolean; data: Buffer }[] };

/**
 * What Chromium 156 sent here, per stream, publishing its fake camera and screen through the SFU (measured at
 * the SFU after 20 s): q 99, h 303, f 779 kbit/s; the screen 443 kbit/s (1280x720).
 */
export const CHROME_LIKE_TRACKS: TrackSpec[] = [
  { name: 'q', width: 320, height: 180, bitrate: 100_000 },
  { name: 'h', width: 640, height: 360, bitrate: 300_000 },
  { name: 'f', width: 1280, height: 720, bitrate: 780_000 },
  { name: 'screen', width: 1280, height: 720, bitrate: 440_000 },
];

/**
 * Records real VP8 with Chromium's own encoder (WebCodecs, libvpx): `seconds` of a moving, textured picture
 * per track at 30 fps and the track's bitrate, one keyframe at the start. A synthetic teacher that replays
 * these frames sends what a browser sends (sizes, packet counts, decodable pictures) for the cost of SRTP
 * only, so a browser student can decode what it receives.
 */
export async function recordVp8(browser: Browser, tracks: TrackSpec[], seconds: number): Promise<Vp8Track[]> {
  // WebCodecs needs a secure context: a blank page from loopback.
  const site = http.createServer((_request, response) => {
    response.writeHead(200, { 'content-type': 'text/html' }).end('<!doctype html><title>vp8</title>');
  });
  await new Promise<void>((resolve) => site.listen(0, '127.0.0.1', resolve));
  const page = await browser.newPage();
  try {
    await page.goto(`http://127.0.0.1:${(site.address() as AddressInfo).port}/`);
    const encoded = await page.evaluate(encodeInPage, { tracks, frameCount: seconds * FPS, fps: FPS });
    return encoded.map((track) => ({
      name: track.name,
      frames: track.frames.map((f) => ({ key: f.key, data: Buffer.from(f.data, 'base64') })),
    }));
  } finally {
    await page.close();
    site.close();
  }
}

const FPS = 30;

/** Runs inside Chromium: draws and encodes each track; frames come back base64-encoded. */
async function encodeInPage({
  tracks,
  frameCount,
  fps,
}: {
  tracks: TrackSpec[];
  frameCount: number;
  fps: number;
}) {
  const out: { name: string; frames: { key: boolean; data: string }[] }[] = [];
  for (const track of tracks) {
    const frames: { key: boolean; data: string }[] = [];
    let failure: unknown = null;
    const encoder = new VideoEncoder({
      output: (chunk) => {
        const bytes = new Uint8Array(chunk.byteLength);
        chunk.copyTo(bytes);
        let binary = '';
        for (let i = 0; i < bytes.length; i += 0x8000)
          binary += String.fromCharCode(...bytes.subarray(i, i + 0x8000));
        frames.push({ key: chunk.type === 'key', data: btoa(binary) });
      },
      error: (error) => (failure = error),
    });
    encoder.configure({
      codec: 'vp8',
      width: track.width,
      height: track.height,
      bitrate: track.bitrate,
      framerate: fps,
      latencyMode: 'realtime',
      bitrateMode: 'constant',
    });
    const canvas = new OffscreenCanvas(track.width, track.height);
    const context = canvas.getContext('2d');
    if (!context) throw new Error('no 2d context');
    // A texture of small random blocks that scrolls, with a bouncing square: motion and detail, so the encoder
    // spends its bitrate like it does on a camera picture.
    const texture = new OffscreenCanvas(track.width, track.height);
    const textureContext = texture.getContext('2d');
    if (!textureContext) throw new Error('no 2d context');
    let seed = 7;
    const random = () => (seed = (seed * 1_103_515_245 + 12_345) % 2_147_483_648) / 2_147_483_648;
    for (let y = 0; y < track.height; y += 8) {
      for (let x = 0; x < track.width; x += 8) {
        textureContext.fillStyle = `hsl(${Math.floor(random() * 360)} 60% ${30 + Math.floor(random() * 40)}%)`;
        textureContext.fillRect(x, y, 8, 8);
      }
    }
    for (let i = 0; i < frameCount; i += 1) {
      const shift = (i * 4) % track.width;
      context.drawImage(texture, -shift, 0);
      context.drawImage(texture, track.width - shift, 0);
      const size = track.height / 4;
      const x = Math.abs(((i * 9) % (2 * (track.width - size))) - (track.width - size));
      context.fillStyle = '#fff';
      context.fillRect(x, track.height / 3, size, size);
      const frame = new VideoFrame(canvas, { timestamp: (i * 1_000_000) / fps, duration: 1_000_000 / fps });
      encoder.encode(frame, { keyFrame: i === 0 });
      frame.close();
      while (encoder.encodeQueueSize > 4) await new Promise((resolve) => setTimeout(resolve, 1));
    }
    await encoder.flush();
    encoder.close();
    if (failure) throw new Error(`encoding ${track.name} failed: ${String(failure)}`);
    out.push({ name: track.name, frames });
  }
  return out;
}
