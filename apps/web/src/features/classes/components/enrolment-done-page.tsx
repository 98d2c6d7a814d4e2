import { useParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { parseClassId } from '../parse-class-id.ts';
import { CLASS_TEXTS } from '../texts.ts';
import { CountdownPage } from './countdown-page.tsx';
import { MissingClassPage } from './missing-class-page.tsx';

/** `/enrollment/{classId}`: enrolment complete, then the student dashboard after 5 s. */
export function EnrolmentDonePage() {
  const classId = parseClassId(useParams().classId);
  const texts = CLASS_TEXTS.enrolled;
  if (classId === null) {
    return (
      <MissingClassPage
        title={texts.title}
        message={texts.missingId}
        linkLabel={texts.goClassroom}
        to={paths.classroom.to()}
      />
    );
  }
  return (
    <CountdownPage
      title={texts.title}
      lead={texts.lead}
      countdownText={texts.countdown}
      buttonLabel={texts.go}
      to={paths.dashboardStudent.to(classId)}
    />
  );
}
