import { ClassroomPage } from '../../features/catalogue/components/classroom-page.tsx';

export function Component() {
  return <ClassroomPage />;
}
