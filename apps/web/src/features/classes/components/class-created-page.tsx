import { useParams } from 'react-router';
import { paths } from '../../../config/paths.ts';
import { parseClassId } from '../parse-class-id.ts';
import { CLASS_TEXTS } from '../texts.ts';
import { CountdownPage } from './countdown-page.tsx';
import { MissingClassPage } from './missing-class-page.tsx';

/** `/lecture/created/{classId}`: 'the class has been opened', then the class introduction after 5 s. */
export function ClassCreatedPage() {
  const classId = parseClassId(useParams().classId);
  const texts = CLASS_TEXTS.created;
  if (classId === null) {
    return (
      <MissingClassPage
        title={texts.title}
        message={texts.missingId}
        linkLabel={texts.goMine}
        to={paths.mypage.to()}
      />
    );
  }
  return (
    <CountdownPage
      title={texts.title}
      countdownText={texts.countdown}
      buttonLabel={texts.go}
      to={paths.lectureInfo.to(classId)}
    />
  );
}
