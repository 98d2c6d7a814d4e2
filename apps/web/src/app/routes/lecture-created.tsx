import { ClassCreatedPage } from '../../features/classes/components/class-created-page.tsx';

export function Component() {
  return <ClassCreatedPage />;
}
