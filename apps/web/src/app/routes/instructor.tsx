import { useParams } from 'react-router';
import { ClassCard } from '../../features/catalogue/components/class-card.tsx';
import { ClassGrid } from '../../features/catalogue/components/class-grid.tsx';
import { InstructorPage } from '../../features/instructors/components/instructor-page.tsx';

export function Component() {
  const userId = useParams().userId ?? '';
  return (
    <InstructorPage
      userId={userId}
      renderClasses={(classes, label) => (
        <ClassGrid label={label}>
          {classes.map((item) => (
            <li key={item.id}>
              <ClassCard item={item} />
            </li>
          ))}
        </ClassGrid>
      )}
    />
  );
}
