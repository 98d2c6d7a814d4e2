import { ClassInfoPage } from '../../features/classes/components/class-info-page.tsx';

export function Component() {
  return <ClassInfoPage />;
}
