import { ClassEditPage } from '../../features/classes/components/class-edit-page.tsx';

export function Component() {
  return <ClassEditPage />;
}
