import { ClassStudentsPage } from '../../features/classes/components/class-students-page.tsx';

export function Component() {
  return <ClassStudentsPage />;
}
