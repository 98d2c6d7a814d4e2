import { ClassListPage } from '../../features/catalogue/components/class-list-page.tsx';

export function Component() {
  return <ClassListPage live={false} />;
}
