import { useCallback, useEffect, useRef, useState } from 'react';
import { Button } from '../../../components/ui/button.tsx';
import { LIVE_TEXTS } from '../texts.ts';
import styles from './live.module.css';

/** A play() still pending after this long counts as blocked too (some browsers keep it waiting). */
export const PLAY_PENDING_MS = 3_000;

/**
 * Plays the teacher's audio tracks (microphone, system audio), one hidden element each. When the browser
 * blocks autoplay (play() rejected, or still pending after {@link PLAY_PENDING_MS}), shows 'tap to hear': the
 * tap is the user gesture that allows playing.
 */
export function TeacherAudio({
  tracks,
  kind = 'teacher-audio',
}: {
  tracks: MediaStreamTrack[];
  /** What the elements play (their `data-kind`): the teacher's audio, or speaking students' voices. */
  kind?: 'teacher-audio' | 'speaker-audio';
}) {
  const elements = useRef(new Set<HTMLAudioElement>());
  const blockedElements = useRef(new Set<HTMLAudioElement>());
  const [blocked, setBlocked] = useState(false);

  const play = useCallback(async (audio: HTMLAudioElement) => {
    const mark = (isBlocked: boolean) => {
      if (isBlocked && !elements.current.has(audio)) return; // gone meanwhile
      if (isBlocked) blockedElements.current.add(audio);
      else blockedElements.current.delete(audio);
      setBlocked(blockedElements.current.size > 0);
    };
    const pending = setTimeout(() => mark(true), PLAY_PENDING_MS);
    try {
      await audio.play();
      mark(false);
      return true;
    } catch (error) {
      // NotAllowedError: the autoplay policy. Others (AbortError: the source changed) are not a block.
      mark((error as { name?: unknown } | null)?.name === 'NotAllowedError');
      return false;
    } finally {
      clearTimeout(pending);
    }
  }, []);

  const register = useCallback((audio: HTMLAudioElement) => {
    elements.current.add(audio);
    return () => {
      elements.current.delete(audio);
      blockedElements.current.delete(audio);
      setBlocked(blockedElements.current.size > 0);
    };
  }, []);

  const unblock = () => Promise.all([...elements.current].map((audio) => play(audio)));

  return (
    <>
      {tracks.map((track) => (
        <AudioTrack key={track.id} track={track} register={register} play={play} kind={kind} />
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
  kind,
}: {
  track: MediaStreamTrack;
  kind: string;
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
  return <audio ref={ref} data-kind={kind} />;
}
