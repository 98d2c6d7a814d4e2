import { useLocation, useNavigate } from 'react-router';
import { CLASS_ROLES } from '@sea/contract/classes';
import { Button } from '../../../components/ui/button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { rememberReturnTo } from '../../../lib/return-to.ts';
import { useLoggedIn } from '../../../lib/use-logged-in.ts';
import { useClassRole } from '../api/get-class-role.ts';
import { useEnroll } from '../api/enroll.ts';
import { enrollErrorMessage } from '../class-error-messages.ts';
import { CLASS_TEXTS } from '../texts.ts';

const texts = CLASS_TEXTS.info;

/**
 * The class introduction's one button: 'go to dashboard' for the teacher (teacher dashboard) or an enrolled
 * student (student dashboard), otherwise 'enroll'. A logged-out visitor goes to login and comes back here.
 */
export function ClassActionButton({ classId }: { classId: number }) {
  const navigate = useNavigate();
  const location = useLocation();
  const notify = useNotify();
  const loggedIn = useLoggedIn();
  const { role, isLoading } = useClassRole(classId);
  const enrollment = useEnroll(classId);

  if (role === CLASS_ROLES.teacher || role === CLASS_ROLES.student) {
    const to =
      role === CLASS_ROLES.teacher ? paths.dashboardTeacher.to(classId) : paths.dashboardStudent.to(classId);
    return (
      <Button size="lg" block onClick={() => navigate(to)}>
        {texts.goToDashboard}
      </Button>
    );
  }

  const enroll = () => {
    if (!loggedIn) {
      rememberReturnTo(location.pathname);
      notify(texts.loginToEnroll);
      navigate(paths.login.to());
      return;
    }
    enrollment.mutate(undefined, {
      onSuccess: () => navigate(paths.enrollment.to(classId)),
      onError: (error) => notify(enrollErrorMessage(error), { tone: 'error' }),
    });
  };

  return (
    <Button size="lg" block onClick={enroll} disabled={isLoading || enrollment.isPending}>
      {enrollment.isPending ? texts.enrolling : texts.enroll}
    </Button>
  );
}
