import { Button } from '../../../components/ui/button.tsx';
import type { TeacherSpeaking } from '../hooks/use-teacher-room.ts';
import { LIVE_TEXTS } from '../texts.ts';
import { TeacherAudio } from './teacher-audio.tsx';
import styles from './live.module.css';

/**
 * The teacher's speakers: each invited or speaking student with '발언 종료', the media service's last refusal,
 * and the speakers' voices (one audio element each).
 */
export function TeacherSpeakers({ speaking }: { speaking: TeacherSpeaking }) {
  return (
    <section className={styles.speakers} aria-label={LIVE_TEXTS.speaking.speakers}>
      {speaking.speakers.length > 0 && (
        <ul>
          {speaking.speakers.map((speaker) => (
            <li key={speaker.userId} className={styles.speaker}>
              <span>🎙 {speaker.nickname}</span>
              <span className={styles.speakingState}>
                {speaker.state === 'speaking' ? LIVE_TEXTS.speaking.now : LIVE_TEXTS.speaking.waiting}
              </span>
              <Button size="sm" variant="danger" onClick={() => speaking.end(speaker.userId)}>
                {LIVE_TEXTS.speaking.end}
              </Button>
            </li>
          ))}
        </ul>
      )}
      {speaking.error && (
        <p role="alert" className={styles.error}>
          {speaking.error}
        </p>
      )}
      <TeacherAudio tracks={speaking.tracks} kind="speaker-audio" />
    </section>
  );
}
