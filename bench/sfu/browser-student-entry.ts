/// <reference lib="dom" />
// Runs in Chromium: one student through the web app's own live classes (SignallingClient, StudentViewer),
// timed from the moment `joinRoom` goes out to the first webcam frame the page decodes and presents.
import { SignallingClient } from '../../apps/web/src/features/live/signalling-client.ts';
import { StudentViewer } from '../../apps/web/src/features/live/student-viewer.ts';

/** Milliseconds from sending `joinRoom`; null when the step did not happen within the time allowed. */
export type BrowserTimings = {
  /** Each step on the way: requests answered, ICE and DTLS (`connected`) up, the webcam track added. */
  steps: Record<string, number>;
  connected: number | null;
  webcamTrack: number | null;
  /** The first frame presented (requestVideoFrameCallback). */
  firstFrame: number | null;
  /** The first time getStats counted a decoded webcam frame (polled every 10 ms once the track is added). */
  firstDecoded: number | null;
  width: number;
  /** The webcam's inbound-rtp figures when the page left (to tell why a frame came late or never). */
  webcam: Record<string, number>;
};

const FIRST_FRAME_TIMEOUT_MS = 15_000;
const WEBCAM_FIGURES = [
  'packetsReceived',
  'packetsLost',
  'framesReceived',
  'framesDecoded',
  'keyFramesDecoded',
  'pliCount',
  'nackCount',
  'frameWidth',
];
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** When each step happened (performance.now()), first time only. */
const marks = new Map<string, number>();
const mark = (step: string) => {
  if (!marks.has(step)) marks.set(step, performance.now());
};

// The viewer makes its own peer connection: note when its ICE and DTLS come up.
const NativePeerConnection = window.RTCPeerConnection;
window.RTCPeerConnection = class extends NativePeerConnection {
  constructor(configuration?: RTCConfiguration) {
    super(configuration);
    this.addEventListener('iceconnectionstatechange', () => mark(`ice ${this.iceConnectionState}`));
    this.addEventListener('connectionstatechange', () => mark(`pc ${this.connectionState}`));
  }
};

async function join(url: string, ticket: string): Promise<BrowserTimings> {
  marks.clear();
  const signalling = new SignallingClient({ url, getTicket: async () => ticket });
  signalling.on('stateChanged', (state) => mark(`signalling ${state}`));
  const request = signalling.request.bind(signalling);
  signalling.request = (async (name, payload) => {
    mark(`${name} sent`);
    const answer = await request(name, payload);
    mark(`${name} answered`);
    return answer;
  }) as typeof signalling.request;
  const viewer = new StudentViewer({ signalling });
  const at: { connected?: number; webcamTrack?: number; firstFrame?: number; firstDecoded?: number } = {};
  let width = 0;
  let webcamTrackId: string | null = null;
  viewer.on('trackAdded', ({ kind, track }) => {
    if (kind !== 'webcamVideo') return;
    at.webcamTrack ??= performance.now();
    webcamTrackId = track.id;
    const video = document.createElement('video');
    video.muted = true;
    video.autoplay = true;
    video.playsInline = true;
    video.srcObject = new MediaStream([track]);
    document.body.append(video);
    video.requestVideoFrameCallback((now, metadata) => {
      at.firstFrame ??= now;
      width = metadata.width;
    });
  });
  const started = viewer.join();
  const deadline = performance.now() + FIRST_FRAME_TIMEOUT_MS;
  while (performance.now() < deadline && (at.firstFrame === undefined || at.firstDecoded === undefined)) {
    const pc = viewer.peerConnection;
    if (pc?.connectionState === 'connected') at.connected ??= performance.now();
    // Stats only once the webcam track is there: polling them earlier would slow the page's own setup.
    if (pc && webcamTrackId !== null && at.firstDecoded === undefined) {
      const stats = await pc.getStats();
      stats.forEach((entry: { type: string; trackIdentifier?: string; framesDecoded?: number }) => {
        const webcam = entry.type === 'inbound-rtp' && entry.trackIdentifier === webcamTrackId;
        if (webcam && (entry.framesDecoded ?? 0) > 0) at.firstDecoded ??= performance.now();
      });
    }
    await sleep(10);
  }
  await started;
  const webcam: Record<string, number> = {};
  (await viewer.peerConnection?.getStats())?.forEach((entry: Record<string, unknown>) => {
    if (entry.type !== 'inbound-rtp' || entry.trackIdentifier !== webcamTrackId) return;
    for (const key of WEBCAM_FIGURES) webcam[key] = Number(entry[key] ?? 0);
  });
  viewer.close();
  signalling.close();
  // `joinRoom` goes out once the socket is connected (socket.io holds it until then): time from that moment,
  // like the light students, which connect first.
  const sent = marks.get('joinRoom sent');
  const connected = marks.get('signalling connected');
  const joinAt = sent === undefined ? null : Math.max(sent, connected ?? sent);
  const since = (t: number | undefined) =>
    t === undefined || joinAt === null ? null : Math.round(t - joinAt);
  const steps: Record<string, number> = {};
  for (const [step, t] of marks) steps[step] = since(t) ?? NaN;
  return {
    steps,
    connected: since(at.connected),
    webcamTrack: since(at.webcamTrack),
    firstFrame: since(at.firstFrame),
    firstDecoded: since(at.firstDecoded),
    width,
    webcam,
  };
}

(window as unknown as { bench: { join: typeof join } }).bench = { join };
