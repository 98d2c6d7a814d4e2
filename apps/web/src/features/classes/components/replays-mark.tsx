import { Link } from 'react-router';
import { CLASS_ROLES } from '@sea/contract/classes';
import { paths } from '../../../config/paths.ts';
import { useClassRole } from '../api/get-class-role.ts';
import { CLASS_TEXTS } from '../texts.ts';
import styles from './replays-mark.module.css';

const texts = CLASS_TEXTS.info;

/**
 * That the class has replays its students can watch (`replay_count`), on the class page: a member follows
 * the link to their dashboard, where the replays are listed; anyone else learns that enrolling opens them.
 * Nothing without replays.
 */
export function ReplaysMark({ classId, count }: { classId: number; count: number }) {
  const { role } = useClassRole(classId);
  if (count === 0) return null;
  if (role === CLASS_ROLES.teacher || role === CLASS_ROLES.student) {
    const to =
      role === CLASS_ROLES.teacher ? paths.dashboardTeacher.to(classId) : paths.dashboardStudent.to(classId);
    return (
      <p className={styles.mark}>
        <Link to={to} className={styles.link}>
          {texts.watchReplays(count)}
        </Link>
      </p>
    );
  }
  return (
    <p className={styles.mark}>
      <strong>{texts.replays(count)}</strong>
      <span className={styles.hint}>{texts.replaysForStudents}</span>
    </p>
  );
}
