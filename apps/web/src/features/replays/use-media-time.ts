import { useEffect, useState } from 'react';

/** The playback position of `video` in milliseconds, updated on `timeupdate` and after each seek. */
export function useMediaTimeMs(video: HTMLMediaElement | null): number {
  const [timeMs, setTimeMs] = useState(0);
  useEffect(() => {
    if (video === null) return undefined;
    const update = () => setTimeMs(Math.round(video.currentTime * 1000));
    update();
    video.addEventListener('timeupdate', update);
    video.addEventListener('seeked', update);
    return () => {
      video.removeEventListener('timeupdate', update);
      video.removeEventListener('seeked', update);
    };
  }, [video]);
  return timeMs;
}

/** The length of `video`'s media in milliseconds once known (0 before). */
export function useMediaDurationMs(video: HTMLMediaElement | null): number {
  const [durationMs, setDurationMs] = useState(0);
  useEffect(() => {
    if (video === null) return undefined;
    const update = () =>
      setDurationMs(Number.isFinite(video.duration) ? Math.round(video.duration * 1000) : 0);
    update();
    video.addEventListener('durationchange', update);
    video.addEventListener('loadedmetadata', update);
    return () => {
      video.removeEventListener('durationchange', update);
      video.removeEventListener('loadedmetadata', update);
    };
  }, [video]);
  return durationMs;
}
