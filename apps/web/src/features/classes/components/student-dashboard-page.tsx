import type { ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { paths } from '../../../config/paths.ts';
import { useClassId } from '../use-class-id.ts';
import { CLASS_TEXTS } from '../texts.ts';
import { CancelEnrolmentButton } from './cancel-enrolment-button.tsx';
import { DashboardGate } from './dashboard-gate.tsx';
import { DashboardOverview } from './dashboard-overview.tsx';
import { ScheduleList } from './schedule-list.tsx';
import styles from './dashboard-actions.module.css';

const texts = CLASS_TEXTS.dashboard;

/** `/dashboard/student/{classId}`: the enrolled student's view; the live room opens only while live. */
export function StudentDashboardPage({
  sections,
}: {
  /** Parts the route adds under the class's facts (other features: replays, attendance). */
  sections?: (classId: number) => ReactNode;
} = {}) {
  const classId = useClassId();
  const navigate = useNavigate();
  return (
    <DashboardGate classId={classId} role="student">
      {(dashboard, reloadFailed) => (
        <DashboardOverview
          dashboard={dashboard}
          title={texts.studentTitle}
          actions={
            <>
              <Button
                size="lg"
                disabled={!dashboard.is_active}
                aria-describedby={dashboard.is_active ? undefined : 'not-live-note'}
                onClick={() => navigate(paths.liveStudent.to(classId))}
              >
                {texts.enterLive}
              </Button>
              <Link className={styles.link} to={paths.lectureInfo.to(classId)}>
                {texts.classInfo}
              </Link>
              <CancelEnrolmentButton classId={classId} className={dashboard.name} />
            </>
          }
          aside={
            dashboard.is_active ? undefined : (
              <p id="not-live-note" className={styles.note}>
                {texts.notLive}
              </p>
            )
          }
          schedule={
            <ScheduleList classId={classId} schedules={dashboard.schedules} loadFailed={reloadFailed} />
          }
          sections={sections?.(classId)}
        />
      )}
    </DashboardGate>
  );
}
