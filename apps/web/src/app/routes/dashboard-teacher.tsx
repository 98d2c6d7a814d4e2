import { TeacherDashboardPage } from '../../features/classes/components/teacher-dashboard-page.tsx';

export function Component() {
  return <TeacherDashboardPage />;
}
