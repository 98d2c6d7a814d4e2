import { Button } from '../../../components/ui/button.tsx';
import type { StudentSpeaking as Speaking } from '../hooks/use-student-room.ts';
import { LIVE_TEXTS } from '../texts.ts';
import { TeacherAudio } from './teacher-audio.tsx';
import styles from './live.module.css';

/**
 * The student's side of speaking: the teacher's invitation (수락 / 거절), the microphone being set up, the
 * '발언 중' indicator with '발언 끝내기', why it could not start, who else speaks, and the other speakers'
 * voices (one audio element each).
 */
export function StudentSpeaking({ speaking }: { speaking: Speaking }) {
  const T = LIVE_TEXTS.speaking;
  const others = speaking.speakers.filter((speaker) => speaker.state === 'speaking' && speaker.producerId);
  return (
    <section className={styles.speakers} aria-label={T.label}>
      {speaking.phase === 'invited' && (
        <div role="alertdialog" aria-label={T.prompt} className={styles.speakPrompt}>
          <p>{T.prompt}</p>
          <Button size="sm" onClick={speaking.accept}>
            {T.accept}
          </Button>
          <Button size="sm" variant="secondary" onClick={speaking.decline}>
            {T.decline}
          </Button>
        </div>
      )}
      {speaking.phase === 'starting' && <p role="status">{T.starting}</p>}
      {speaking.phase === 'speaking' && (
        <div className={styles.speakingNow}>
          <span role="status" className={styles.speakingBadge}>
            🎙 {T.speakingNow}
          </span>
          <Button size="sm" variant="danger" onClick={speaking.end}>
            {T.endOwn}
          </Button>
        </div>
      )}
      {speaking.error && (
        <p role="alert" className={styles.error}>
          {speaking.error}
        </p>
      )}
      {speaking.phase !== 'speaking' && others.length > 0 && (
        <p className={styles.hint}>{T.others(others.map((speaker) => speaker.nickname).join(', '))}</p>
      )}
      <TeacherAudio tracks={speaking.tracks} kind="speaker-audio" />
    </section>
  );
}
