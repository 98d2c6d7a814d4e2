import { useState, type ReactNode } from 'react';
import { Link, useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { paths } from '../../../config/paths.ts';
import { useClassId } from '../use-class-id.ts';
import { CLASS_TEXTS } from '../texts.ts';
import { DashboardGate } from './dashboard-gate.tsx';
import { DashboardOverview } from './dashboard-overview.tsx';
import { DeleteClassButton } from './delete-class-button.tsx';
import { ScheduleList } from './schedule-list.tsx';
import styles from './dashboard-actions.module.css';

const texts = CLASS_TEXTS.dashboard;

/** `/dashboard/teacher/{classId}`: start the live class, edit or delete it, students and schedule. */
export function TeacherDashboardPage({
  sections,
}: {
  /** Parts the route adds under the class's facts (other features: replays, attendance). */
  sections?: (classId: number) => ReactNode;
} = {}) {
  const classId = useClassId();
  const navigate = useNavigate();
  const [record, setRecord] = useState(true);
  return (
    <DashboardGate classId={classId} role="teacher">
      {(dashboard, reloadFailed) => (
        <DashboardOverview
          dashboard={dashboard}
          title={texts.teacherTitle}
          actions={
            <>
              <span className={styles.actionGroup}>
                <Button size="lg" onClick={() => navigate(paths.liveTeacher.to(classId, { record }))}>
                  {texts.startLive}
                </Button>
                <label className={styles.noRecording}>
                  <input
                    type="checkbox"
                    checked={!record}
                    onChange={(event) => setRecord(!event.target.checked)}
                  />
                  {texts.noRecording}
                </label>
              </span>
              <span className={styles.actionGroup}>
                <Button variant="secondary" onClick={() => navigate(paths.dashboardEdit.to(classId))}>
                  {texts.editInfo}
                </Button>
                <DeleteClassButton classId={classId} />
              </span>
            </>
          }
          aside={
            <p className={styles.students}>
              {reloadFailed ? (
                <strong role="alert" className={styles.failed}>
                  {CLASS_TEXTS.students.loadFailed}
                </strong>
              ) : (
                <strong>{texts.studentCount(dashboard.student_count)}</strong>
              )}
              <Link className={styles.link} to={paths.lectureStudents.to(classId)}>
                {texts.studentList}
              </Link>
            </p>
          }
          schedule={
            <ScheduleList
              classId={classId}
              schedules={dashboard.schedules}
              loadFailed={reloadFailed}
              editable
            />
          }
          sections={sections?.(classId)}
        />
      )}
    </DashboardGate>
  );
}
