import { useEffect, useRef } from 'react';
import styles from './live.module.css';

/** Shows one video track (muted: audio plays through {@link TeacherAudio}); `placeholder` while there is none. */
export function LiveVideo({
  track,
  label,
  placeholder,
  fit = 'contain',
}: {
  track: MediaStreamTrack | null | undefined;
  label: string;
  placeholder: string;
  fit?: 'contain' | 'cover';
}) {
  const ref = useRef<HTMLVideoElement>(null);
  useEffect(() => {
    const video = ref.current;
    if (!video || !track) return;
    video.srcObject = new MediaStream([track]);
    // Muted video may always autoplay; a rejection only means the element went away meanwhile.
    void Promise.resolve(video.play()).catch(() => undefined);
    return () => {
      video.srcObject = null;
    };
  }, [track]);
  if (!track) return <p className={styles.placeholder}>{placeholder}</p>;
  return (
    <video
      ref={ref}
      className={fit === 'cover' ? styles.videoCover : styles.video}
      aria-label={label}
      autoPlay
      playsInline
      muted
    />
  );
}
