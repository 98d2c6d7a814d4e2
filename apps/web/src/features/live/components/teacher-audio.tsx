import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { LIVE_TEXTS } from '../texts.ts';
import styles from './live.module.css';

/**
 * Plays the teacher's audio tracks (microphone, system audio), one hidden element each. When the browser
 * blocks autoplay (play() rejected), shows 'tap to hear': the tap is the user gesture that allows playing.
 */
export function TeacherAudio({ tracks }: { tracks: MediaStreamTrack[] }) {
  const elements = useRef(new Set<HTMLAudioElement>());
  const [blocked, setBlocked] = useState(false);

  const play = useCallback(async (audio: HTMLAudioElement) => {
    try {
      await audio.play();
      return true;
    } catch (error) {
      // NotAllowedError: the autoplay policy. Others (AbortError: the source changed) are not a block.
      if ((error as { name?: unknown } | null)?.name === 'NotAllowedError') setBlocked(true);
      return false;
    }
  }, []);

  const register = useCallback((audio: HTMLAudioElement) => {
    elements.current.add(audio);
    return () => void elements.current.delete(audio);
  }, []);

  useEffect(() => {
    if (tracks.length === 0) setBlocked(false);
  }, [tracks.length]);

  const unblock = async () => {
    const results = await Promise.all([...elements.current].map((audio) => play(audio)));
    if (results.every(Boolean)) setBlocked(false);
  };

  return (
    <>
      {tracks.map((track) => (
        <AudioTrack key={track.id} track={track} register={register} play={play} />
      ))}
      {blocked && tracks.length > 0 && (
        <div className={styles.unmute}>
          <Button size="lg" onClick={() => void unblock()}>
            {LIVE_TEXTS.tapToHear}
          </Button>
          <p className={styles.hint}>{LIVE_TEXTS.tapToHearHint}</p>
        </div>
      )}
    </>
  );
}

function AudioTrack({
  track,
  register,
  play,
}: {
  track: MediaStreamTrack;
  register: (audio: HTMLAudioElement) => () => void;
  play: (audio: HTMLAudioElement) => Promise<boolean>;
}) {
  const ref = useRef<HTMLAudioElement>(null);
  useEffect(() => {
    const audio = ref.current;
    if (!audio) return;
    audio.srcObject = new MediaStream([track]);
    const unregister = register(audio);
    void play(audio);
    return () => {
      unregister();
      audio.srcObject = null;
    };
  }, [track, register, play]);
  return <audio ref={ref} data-kind="teacher-audio" />;
}
