import { ClassOpenPage } from '../../features/classes/components/class-open-page.tsx';

export function Component() {
  return <ClassOpenPage />;
}
