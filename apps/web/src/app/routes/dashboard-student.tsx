import { StudentDashboardPage } from '../../features/classes/components/student-dashboard-page.tsx';

export function Component() {
  return <StudentDashboardPage />;
}
