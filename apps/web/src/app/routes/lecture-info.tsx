import { ClassInfoPage } from '../../features/classes/components/class-info-page.tsx';
import { ReviewsSection } from '../../features/reviews/components/reviews-section.tsx';

export function Component() {
  return <ClassInfoPage below={(item) => <ReviewsSection classId={item.id} />} />;
}
