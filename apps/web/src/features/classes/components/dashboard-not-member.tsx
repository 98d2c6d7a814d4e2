import { Link } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { paths } from '../../../config/paths.ts';
import { CLASS_TEXTS } from '../texts.ts';
import { ClassActionButton } from './class-action-button.tsx';
import styles from './dashboard-actions.module.css';

const texts = CLASS_TEXTS.dashboard;

/**
 * A dashboard asked for by someone who is neither the class's teacher nor enrolled (the server's 418): says
 * the dashboard is for enrolled students, and offers the class introduction and the enrol button.
 */
export function DashboardNotMember({ classId }: { classId: number }) {
  return (
    <Page>
      <h1 className="visually-hidden">{texts.studentTitle}</h1>
      <EmptyState message={texts.membersOnly}>
        <div className={styles.join}>
          <ClassActionButton classId={classId} />
          <Link className={styles.link} to={paths.lectureInfo.to(classId)}>
            {texts.classInfo}
          </Link>
        </div>
      </EmptyState>
    </Page>
  );
}
