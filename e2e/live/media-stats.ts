/// <reference lib="dom" />
// Code inside addInitScript and page.evaluate runs in the browser and uses its globals.
//
// What the live journey measures in a page, from the browser's own WebRTC statistics (testing.md: frames
// counted with getStats().framesDecoded or requestVideoFrameCallback; videoWidth alone proves nothing).
import type { BrowserContext, Page } from 'playwright-core';

/** One received stream of the page, from `getStats()` of its peer connection (inbound-rtp). */
export type Inbound = {
  framesDecoded: number;
  frameWidth: number;
  frameHeight: number;
  packetsReceived: number;
  totalAudioEnergy: number;
};

/** The page's received streams by element: a video's aria-label, or `audio-0`, `audio-1` for the sound. */
export type PageInbound = Record<string, Inbound>;

/** The selected ICE candidate pair of one of the page's connections: the addresses media flows between. */
export type CandidatePair = { local: string; remote: string };

/** Where a page keeps its peer connections ({@link recordPeerConnections}). */
export const PEER_CONNECTIONS = '__seaPeerConnections';

/**
 * Makes every page of `context` keep the peer connections the app creates (a subclass of the browser's own
 * RTCPeerConnection that records each instance), so the journey can read their statistics. The app itself
 * is unchanged: it gets a real RTCPeerConnection.
 */
export async function recordPeerConnections(context: BrowserContext): Promise<void> {
  await context.addInitScript((key: string) => {
    const Native = window.RTCPeerConnection;
    const created: RTCPeerConnection[] = [];
    class Recorded extends Native {
      constructor(configuration?: RTCConfiguration) {
        super(configuration);
        created.push(this);
      }
    }
    Object.defineProperty(window, key, { value: created });
    window.RTCPeerConnection = Recorded;
  }, PEER_CONNECTIONS);
}

/** The inbound-rtp figures of every stream an element of the page plays (see {@link PageInbound}). */
export function inbound(page: Page): Promise<PageInbound> {
  return page.evaluate(async (key: string) => {
    const all = (window as unknown as Record<string, RTCPeerConnection[]>)[key] ?? [];
    const byTrack = new Map<string, Inbound>();
    for (const pc of all.filter((connection) => connection.connectionState !== 'closed')) {
      const report = await pc.getStats();
      report.forEach((entry: Record<string, unknown>) => {
        if (entry.type !== 'inbound-rtp' || typeof entry.trackIdentifier !== 'string') return;
        byTrack.set(entry.trackIdentifier, {
          framesDecoded: Number(entry.framesDecoded ?? 0),
          frameWidth: Number(entry.frameWidth ?? 0),
          frameHeight: Number(entry.frameHeight ?? 0),
          packetsReceived: Number(entry.packetsReceived ?? 0),
          totalAudioEnergy: Number(entry.totalAudioEnergy ?? 0),
        });
      });
    }
    const out: Record<string, Inbound> = {};
    const name = (element: HTMLMediaElement, i: number) => element.getAttribute('aria-label') ?? `audio-${i}`;
    const elements = [
      ...document.querySelectorAll<HTMLVideoElement>('video[aria-label]'),
      ...document.querySelectorAll<HTMLAudioElement>('audio[data-kind="teacher-audio"]'),
    ];
    let audios = 0;
    for (const element of elements) {
      const index = element instanceof HTMLAudioElement ? audios++ : 0;
      const track = (element.srcObject as MediaStream | null)?.getTracks()[0];
      const figures = track ? byTrack.get(track.id) : undefined;
      if (figures) out[name(element, index)] = figures;
    }
    return out;
  }, PEER_CONNECTIONS);
}

/** Receiving counters of the named video (to tell frames that never came from frames that did not decode). */
export function receiving(page: Page, label: string): Promise<Record<string, number> | null> {
  return page.evaluate(
    async ({ key, name }) => {
      const all = (window as unknown as Record<string, RTCPeerConnection[]>)[key] ?? [];
      const video = document.querySelector<HTMLVideoElement>(`video[aria-label="${name}"]`);
      const trackId = (video?.srcObject as MediaStream | null)?.getTracks()[0]?.id;
      const fields = [
        'packetsReceived',
        'packetsLost',
        'nackCount',
        'pliCount',
        'framesReceived',
        'framesDecoded',
        'keyFramesDecoded',
        'framesDropped',
        'freezeCount',
      ];
      for (const pc of all.filter((connection) => connection.connectionState !== 'closed')) {
        const report = await pc.getStats();
        let found: Record<string, number> | null = null;
        report.forEach((entry: Record<string, unknown>) => {
          if (entry.type === 'inbound-rtp' && entry.trackIdentifier === trackId)
            found = Object.fromEntries(fields.map((field) => [field, Number(entry[field] ?? 0)]));
        });
        if (found) return found;
      }
      return null;
    },
    { key: PEER_CONNECTIONS, name: label },
  );
}

/** The selected candidate pair of each of the page's open connections. */
export function candidatePairs(page: Page): Promise<CandidatePair[]> {
  return page.evaluate(async (key: string) => {
    const all = (window as unknown as Record<string, RTCPeerConnection[]>)[key] ?? [];
    const pairs: CandidatePair[] = [];
    for (const pc of all.filter((connection) => connection.connectionState === 'connected')) {
      const report = await pc.getStats();
      const entries = new Map<string, Record<string, unknown>>();
      report.forEach((entry: Record<string, unknown>) => entries.set(String(entry.id), entry));
      for (const entry of entries.values()) {
        if (entry.type !== 'transport') continue;
        const pair = entries.get(String(entry.selectedCandidatePairId));
        const local = entries.get(String(pair?.localCandidateId));
        const remote = entries.get(String(pair?.remoteCandidateId));
        if (local && remote) pairs.push({ local: String(local.address), remote: String(remote.address) });
      }
    }
    return pairs;
  }, PEER_CONNECTIONS);
}

export type OutboundLayer = {
  rid: string;
  width: number;
  fps: number;
  /** Why the browser sends less than it could: none, cpu, bandwidth or other. */
  limitation: string;
  /** The browser's estimate of what its connection to the media service carries, in bit/s. */
  estimateBps: number;
};

/** What the teacher's browser sends per simulcast layer now: size, frame rate, and what limits it. */
export function outboundLayers(page: Page): Promise<OutboundLayer[]> {
  return page.evaluate(async (key: string) => {
    const all = (window as unknown as Record<string, RTCPeerConnection[]>)[key] ?? [];
    const layers: OutboundLayer[] = [];
    for (const pc of all.filter((connection) => connection.connectionState !== 'closed')) {
      const report = await pc.getStats();
      let estimateBps = 0;
      report.forEach((entry: Record<string, unknown>) => {
        if (entry.type === 'candidate-pair' && entry.nominated === true && entry.state === 'succeeded')
          estimateBps = Number(entry.availableOutgoingBitrate ?? 0);
      });
      report.forEach((entry: Record<string, unknown>) => {
        if (entry.type !== 'outbound-rtp' || entry.kind !== 'video' || typeof entry.rid !== 'string') return;
        layers.push({
          rid: entry.rid,
          width: Number(entry.frameWidth ?? 0),
          fps: Number(entry.framesPerSecond ?? 0),
          limitation: String(entry.qualityLimitationReason ?? ''),
          estimateBps,
        });
      });
    }
    return layers;
  }, PEER_CONNECTIONS);
}

/**
 * Frames the named video element presents over `ms` (requestVideoFrameCallback), and the size of the last
 * one: for local previews, which have no receiving statistics.
 */
export function presented(page: Page, label: string, ms = 1_000): Promise<{ frames: number; width: number }> {
  return page.evaluate(
    ({ name, duration }) =>
      new Promise<{ frames: number; width: number }>((resolve) => {
        const video = document.querySelector<HTMLVideoElement>(`video[aria-label="${name}"]`);
        if (!video) {
          resolve({ frames: 0, width: 0 });
          return;
        }
        let frames = 0;
        let width = 0;
        let done = false;
        const count = (_now: number, metadata: VideoFrameCallbackMetadata) => {
          if (done) return;
          frames += 1;
          width = metadata.width;
          video.requestVideoFrameCallback(count);
        };
        video.requestVideoFrameCallback(count);
        setTimeout(() => {
          done = true;
          resolve({ frames, width });
        }, duration);
      }),
    { name: label, duration: ms },
  );
}

/** A sample of one stream: when (ms from the start), the frames decoded so far, and the frame width. */
export type Sample = { at: number; frames: number; width: number };

/**
 * Samples the named video's decoding every `everyMs` for `ms`, inside the page (no round trip per sample),
 * starting right after `start()` has run there; the caller then computes switches and freezes.
 */
export async function sampleDecoding(page: Page, label: string, ms: number, everyMs = 50): Promise<Sample[]> {
  return page.evaluate(
    async ({ key, name, duration, every }) => {
      const all = (window as unknown as Record<string, RTCPeerConnection[]>)[key] ?? [];
      const samples: Sample[] = [];
      const started = performance.now();
      while (performance.now() - started < duration) {
        const video = document.querySelector<HTMLVideoElement>(`video[aria-label="${name}"]`);
        const trackId = (video?.srcObject as MediaStream | null)?.getTracks()[0]?.id;
        let sample: Sample = { at: Math.round(performance.now() - started), frames: 0, width: 0 };
        for (const pc of all.filter((connection) => connection.connectionState !== 'closed')) {
          const report = await pc.getStats();
          report.forEach((entry: Record<string, unknown>) => {
            if (entry.type === 'inbound-rtp' && entry.trackIdentifier === trackId) {
              sample = {
                ...sample,
                frames: Number(entry.framesDecoded ?? 0),
                width: Number(entry.frameWidth ?? 0),
              };
            }
          });
        }
        samples.push(sample);
        await new Promise((resolve) => setTimeout(resolve, every));
      }
      return samples;
    },
    { key: PEER_CONNECTIONS, name: label, duration: ms, every: everyMs },
  );
}

/**
 * From samples taken across a quality switch: when the new width was first decoded, and the longest time
 * without a newly decoded frame (a freeze), measured from the first sample to the last.
 */
export function switchFigures(samples: Sample[], width: number) {
  const switched = samples.find((sample, i) => sample.width === width && i > 0);
  let longestStallMs = 0;
  let longestStallFrom = 0;
  let lastNewFrame = samples[0]?.at ?? 0;
  for (let i = 1; i < samples.length; i += 1) {
    const current = samples[i];
    const previous = samples[i - 1];
    if (!current || !previous) continue;
    if (current.frames > previous.frames) lastNewFrame = current.at;
    else if (current.at - lastNewFrame > longestStallMs) {
      longestStallMs = current.at - lastNewFrame;
      longestStallFrom = lastNewFrame;
    }
  }
  return {
    switchedAfterMs: switched?.at ?? null,
    longestStallMs,
    /** When the longest freeze began (ms from the first sample), to tell it from the switch. */
    longestStallFrom,
    finalWidth: samples.at(-1)?.width ?? 0,
    samples: samples.length,
  };
}
