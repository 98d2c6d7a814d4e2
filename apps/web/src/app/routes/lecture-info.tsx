import { Link } from 'react-router';
import { paths } from '../../config/paths.ts';
import { ClassInfoPage } from '../../features/classes/components/class-info-page.tsx';
import { InstructorIntro } from '../../features/instructors/components/instructor-intro.tsx';
import { ReviewsSection } from '../../features/reviews/components/reviews-section.tsx';
import { APP_TEXTS } from '../texts.ts';

export function Component() {
  return (
    <ClassInfoPage
      instructorLink={(item) => (
        <Link to={paths.instructor.to(item.user_id)}>{APP_TEXTS.instructorLink(item.instructor)}</Link>
      )}
      instructorIntro={(item) => <InstructorIntro userId={item.user_id} nickname={item.instructor} />}
      below={(item) => <ReviewsSection classId={item.id} />}
    />
  );
}
