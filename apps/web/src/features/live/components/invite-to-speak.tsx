import { MAX_SPEAKERS } from '@sea/contract/live';
import { Button } from '../../../components/ui/button.tsx';
import type { TeacherSpeaking } from '../hooks/use-teacher-room.ts';
import { LIVE_TEXTS } from '../texts.ts';
import styles from './live.module.css';

/**
 * Beside a raised hand in the teacher's queue: '발언 요청' for a student not invited yet (off while two
 * students are invited or speaking), else where that student stands.
 */
export function InviteToSpeak({ speaking, userId }: { speaking: TeacherSpeaking; userId: string }) {
  const seat = speaking.speakers.find((speaker) => speaker.userId === userId);
  if (seat) {
    return (
      <span className={styles.speakingState}>
        {seat.state === 'speaking' ? LIVE_TEXTS.speaking.now : LIVE_TEXTS.speaking.waiting}
      </span>
    );
  }
  return (
    <Button
      size="sm"
      variant="secondary"
      disabled={speaking.speakers.length >= MAX_SPEAKERS}
      onClick={() => speaking.invite(userId)}
    >
      {LIVE_TEXTS.speaking.invite}
    </Button>
  );
}
