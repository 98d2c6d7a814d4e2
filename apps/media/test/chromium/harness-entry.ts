/// <reference lib="dom" />
// Runs in Chromium: the web app's live classes, driven by the harness through `window.harness`.
import type { PreferredLayer, StreamKind } from '@sea/contract/live';
import { SignallingClient } from '../../../web/src/features/live/signalling-client.ts';
import { StudentViewer } from '../../../web/src/features/live/student-viewer.ts';
import { TeacherPublisher } from '../../../web/src/features/live/teacher-publisher.ts';

type InboundStats = {
  ssrc: number;
  mid: string;
  kind: StreamKind | null;
  framesDecoded: number;
  frameWidth: number;
  frameHeight: number;
  packetsReceived: number;
};

const state: {
  signalling?: SignallingClient;
  publisher?: TeacherPublisher;
  viewer?: StudentViewer;
  camera?: MediaStream;
  screen?: MediaStream;
  kinds: Map<string, StreamKind>;
  events: string[];
} = { kinds: new Map(), events: [] };

/** A fresh single-use ticket, signed by the harness (exposed to the page by run-harness.ts). */
const freshTicket = () => (globalThis as never as { freshTicket(): Promise<string> }).freshTicket();

const harness = {
  async teacher(url: string): Promise<string[]> {
    state.signalling = new SignallingClient({ url, getTicket: freshTicket });
    state.publisher = new TeacherPublisher({ signalling: state.signalling });
    state.publisher.on('streamStateChanged', ({ kind, state: s }) => state.events.push(`${kind}:${s}`));
    await state.publisher.start();
    state.camera = await navigator.mediaDevices.getUserMedia({
      video: { width: 1280, height: 720 },
      audio: true,
    });
    state.screen = await navigator.mediaDevices.getDisplayMedia({ video: true, audio: true });
    const published: string[] = [];
    const pairs: [StreamKind, MediaStreamTrack | undefined][] = [
      ['webcamVideo', state.camera.getVideoTracks()[0]],
      ['webcamAudio', state.camera.getAudioTracks()[0]],
      ['screenShareVideo', state.screen.getVideoTracks()[0]],
      ['screenShareAudio', state.screen.getAudioTracks()[0]],
    ];
    for (const [kind, track] of pairs) {
      if (!track) continue;
      await state.publisher.publish(kind, track);
      published.push(kind);
    }
    return published;
  },

  async webcam(on: boolean): Promise<void> {
    const track = state.camera?.getVideoTracks()[0];
    if (!state.publisher || !track) throw new Error('no teacher');
    if (on) await state.publisher.publish('webcamVideo', track);
    else await state.publisher.unpublish('webcamVideo');
  },

  leave(): void {
    state.publisher?.close();
    state.signalling?.close();
  },

  async student(url: string, layer: PreferredLayer): Promise<void> {
    // Where to go when the node cannot be reached, if the harness says (it plays the API server's placement).
    const relocate = (globalThis as never as { relocateTicket?(): Promise<{ url: string; ticket: string }> })
      .relocateTicket;
    state.signalling = new SignallingClient({
      url,
      getTicket: freshTicket,
      ...(relocate ? { relocate: () => relocate() } : {}),
    });
    state.viewer = new StudentViewer({ signalling: state.signalling });
    state.viewer.on('trackAdded', ({ kind, track }) => {
      state.kinds.set(track.id, kind);
      state.events.push(`added:${kind}`);
      if (track.kind === 'video') {
        const video = document.createElement('video');
        video.id = kind;
        video.muted = true;
        video.autoplay = true;
        video.playsInline = true;
        video.srcObject = new MediaStream([track]);
        document.getElementById(kind)?.remove();
        document.body.append(video);
      }
    });
    state.viewer.on('trackRemoved', ({ kind }) => state.events.push(`removed:${kind}`));
    state.viewer.on('ended', () => state.events.push('ended'));
    await state.viewer.setLayer(layer);
    await state.viewer.join();
  },

  async setLayer(layer: PreferredLayer): Promise<void> {
    await state.viewer?.setLayer(layer);
  },

  /** The teacher's sending figures: per simulcast layer, and the estimate Chrome works with. */
  async outbound(): Promise<Record<string, unknown>[]> {
    const pc = (state.publisher as unknown as { peerConnection?: RTCPeerConnection } | undefined)
      ?.peerConnection;
    if (!pc) return [];
    const report = await pc.getStats();
    const out: Record<string, unknown>[] = [];
    report.forEach((entry: Record<string, unknown>) => {
      if (entry.type === 'outbound-rtp' && entry.kind === 'video') {
        out.push({
          rid: entry.rid,
          width: entry.frameWidth,
          fps: entry.framesPerSecond,
          target: entry.targetBitrate,
          limit: entry.qualityLimitationReason,
          nacks: entry.nackCount,
          plis: entry.pliCount,
          retransmitted: entry.retransmittedPacketsSent,
          active: entry.active,
        });
      }
      if (entry.type === 'candidate-pair' && entry.nominated)
        out.push({ available: entry.availableOutgoingBitrate });
      if (entry.type === 'remote-inbound-rtp') out.push({ remoteLoss: entry.fractionLost, ssrc: entry.ssrc });
    });
    return out;
  },

  events(): string[] {
    return state.events;
  },

  /** Where this page's connections stand: signalling, media, and (teacher) each stream. */
  status(): { signalling: string; media: string; streams: Record<string, string> } {
    const pc = state.publisher?.peerConnection ?? state.viewer?.peerConnection;
    const streams: Record<string, string> = {};
    if (state.publisher) {
      for (const kind of ['webcamVideo', 'webcamAudio', 'screenShareVideo', 'screenShareAudio'] as const)
        streams[kind] = state.publisher.streamState(kind);
    }
    return { signalling: state.signalling?.state ?? 'none', media: pc?.connectionState ?? 'none', streams };
  },

  async inbound(): Promise<InboundStats[]> {
    const pc = state.viewer?.peerConnection;
    if (!pc) return [];
    const report = await pc.getStats();
    const out: InboundStats[] = [];
    report.forEach((entry: Record<string, unknown>) => {
      if (entry.type !== 'inbound-rtp') return;
      out.push({
        ssrc: Number(entry.ssrc),
        mid: String(entry.mid),
        kind: state.kinds.get(String(entry.trackIdentifier)) ?? null,
        framesDecoded: Number(entry.framesDecoded ?? 0),
        frameWidth: Number(entry.frameWidth ?? 0),
        frameHeight: Number(entry.frameHeight ?? 0),
        packetsReceived: Number(entry.packetsReceived ?? 0),
      });
    });
    return out;
  },
};

(window as unknown as { harness: typeof harness }).harness = harness;
