import { AttendanceCard } from '../../features/attendance/components/attendance-card.tsx';
import { PastQuestionsCard } from '../../features/classroom/components/past-questions-card.tsx';
import { TeacherDashboardPage } from '../../features/classes/components/teacher-dashboard-page.tsx';
import { MaterialsCard } from '../../features/materials/components/materials-card.tsx';
import { StudentsProgressCard } from '../../features/progress/components/students-progress-card.tsx';
import { SessionList } from '../../features/replays/components/session-list.tsx';

export function Component() {
  return (
    <TeacherDashboardPage
      sections={(classId) => (
        <>
          <MaterialsCard classId={classId} role="teacher" />
          <SessionList classId={classId} role="teacher" />
          <AttendanceCard classId={classId} />
          <StudentsProgressCard classId={classId} />
          <PastQuestionsCard classId={classId} />
        </>
      )}
    />
  );
}
