import { apiUrl } from '../../lib/http.ts';

export type ReplaySource = {
  /** The signed HLS playlist URL of the session item (relative to the site). */
  hlsUrl: string;
  /** The signed MP4 URL: played directly where neither hls.js nor the browser plays HLS. */
  mp4Url: string | null;
  startS: number;
  /** The stream cannot play (hls.js gave up after its own retries). */
  onFatal: () => void;
};

/**
 * Puts the replay on `video`: through hls.js where the browser has Media Source Extensions (its light build,
 * without subtitles, alternate audio or DRM, which replays never have; loaded only here), else the browser's own HLS (Safari on iOS), else the MP4. Starts at `startS`.
 * Returns the detach function (destroys hls.js); safe to call before hls.js has loaded.
 */
export function attachReplaySource(video: HTMLVideoElement, source: ReplaySource): () => void {
  let detached = false;
  let player: { destroy(): void } | null = null;
  const hlsUrl = apiUrl(source.hlsUrl);
  const startAt = () => {
    if (source.startS > 0) video.currentTime = source.startS;
  };
  const playDirectly = (url: string) => {
    video.addEventListener('loadedmetadata', startAt, { once: true });
    video.src = url;
  };

  import('hls.js/light').then(
    ({ default: Hls }) => {
      if (detached) return;
      if (!Hls.isSupported()) {
        if (video.canPlayType('application/vnd.apple.mpegurl') !== '') playDirectly(hlsUrl);
        else if (source.mp4Url !== null) playDirectly(apiUrl(source.mp4Url));
        else source.onFatal();
        return;
      }
      const hls = new Hls({ startPosition: source.startS > 0 ? source.startS : -1 });
      hls.on(Hls.Events.ERROR, (_event, data) => {
        if (data.fatal) source.onFatal();
      });
      hls.loadSource(hlsUrl);
      hls.attachMedia(video);
      player = hls;
    },
    () => {
      // The chunk of hls.js did not load (offline, a new deploy): the MP4 plays without it.
      if (detached) return;
      if (source.mp4Url !== null) playDirectly(apiUrl(source.mp4Url));
      else source.onFatal();
    },
  );

  return () => {
    detached = true;
    video.removeEventListener('loadedmetadata', startAt);
    player?.destroy();
  };
}
