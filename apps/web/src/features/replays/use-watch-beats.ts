import { useEffect } from 'react';
import { sendWatchBeat } from './api/send-watch-beat.ts';
import { WatchBeats } from './watch-beats.ts';

/** Reports watching of `video` (see `WatchBeats`) while the replay page shows it. */
export function useWatchBeats(classId: number, sessionId: number, video: HTMLVideoElement | null): void {
  useEffect(() => {
    if (video === null) return undefined;
    const beats = new WatchBeats({
      media: video,
      page: { window, document },
      send: (beat, keepalive) => sendWatchBeat(classId, sessionId, beat, keepalive),
      // A lost beat costs at most one beat's credit, and the next one carries the position again: nothing to
      // show the viewer in the middle of the video.
      onFailed: () => undefined,
    });
    return () => beats.close();
  }, [classId, sessionId, video]);
}
