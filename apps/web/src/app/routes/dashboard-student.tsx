import { MyAttendance } from '../../features/attendance/components/my-attendance.tsx';
import { StudentDashboardPage } from '../../features/classes/components/student-dashboard-page.tsx';
import { MaterialsCard } from '../../features/materials/components/materials-card.tsx';
import { ProgressCard } from '../../features/progress/components/progress-card.tsx';
import { SessionList } from '../../features/replays/components/session-list.tsx';

export function Component() {
  return (
    <StudentDashboardPage
      sections={(classId) => (
        <>
          <MaterialsCard classId={classId} role="student" />
          <ProgressCard classId={classId} />
          <SessionList classId={classId} role="student" />
          <MyAttendance classId={classId} />
        </>
      )}
    />
  );
}
