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
