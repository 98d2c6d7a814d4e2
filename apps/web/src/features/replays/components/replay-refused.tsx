import { Link } from 'react-router';
import { PageAlert } from '../../../components/ui/page-alert.tsx';
import { paths } from '../../../config/paths.ts';
import { REPLAY_TEXTS } from '../texts.ts';
import styles from './replay-page.module.css';

const texts = REPLAY_TEXTS.page;

/**
 * A replay that cannot be shown: why (by default, that the caller is neither the class's teacher nor one of
 * its students, as the server's 418 says) and the way back to the dashboard.
 */
export function ReplayRefused({
  classId,
  role,
  message = texts.membersOnly,
}: {
  classId: number;
  role: 'teacher' | 'student';
  message?: string;
}) {
  const dashboard =
    role === 'teacher' ? paths.dashboardTeacher.to(classId) : paths.dashboardStudent.to(classId);
  return (
    <PageAlert message={message}>
      <Link className={styles.back} to={dashboard}>
        {texts.backToDashboard}
      </Link>
    </PageAlert>
  );
}
