import { Avatar } from '../../../components/ui/avatar.tsx';
import { useInstructor } from '../api/get-instructor.ts';
import { INSTRUCTOR_TEXTS as texts } from '../texts.ts';
import styles from './instructor-page.module.css';

/**
 * The instructor's own avatar and introduction, as their page shows them: the one source of '강사 소개' on a
 * class's page too, so the two pages never disagree.
 */
export function InstructorIntro({ userId, nickname }: { userId: string; nickname: string }) {
  const query = useInstructor(userId);
  const introduction = query.data?.introduction?.trim();
  return (
    <div className={styles.introCard}>
      <Avatar name={nickname} src={query.data?.profile_image_path ?? null} size={64} alt="" />
      <div>
        <strong>{nickname}</strong>
        <p className={styles.intro}>
          {query.isPending
            ? texts.loading
            : query.isError
              ? texts.loadFailed
              : introduction || texts.noIntroduction}
        </p>
      </div>
    </div>
  );
}
