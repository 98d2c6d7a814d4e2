import { ClassroomPage } from '../../features/catalogue/components/classroom-page.tsx';
import { ClassProgressLine } from '../../features/progress/components/class-progress-line.tsx';

export function Component() {
  return (
    <ClassroomPage cardFooter={(item) => <ClassProgressLine classId={item.id} className={item.name} />} />
  );
}
