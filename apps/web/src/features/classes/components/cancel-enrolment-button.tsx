import { useNavigate } from 'react-router';
import { ConfirmDangerButton } from '../../../components/ui/confirm-danger-button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { useCancelEnrolment } from '../api/cancel-enrolment.ts';
import { CLASS_TEXTS } from '../texts.ts';

const texts = CLASS_TEXTS.dashboard;

/**
 * The student's 'cancel enrolment' with its confirmation. Cancelled: the notice, then my classroom. Failed: a
 * notice, and the student stays. The confirmation closes either way.
 */
export function CancelEnrolmentButton({ classId, className }: { classId: number; className: string }) {
  const navigate = useNavigate();
  const notify = useNotify();
  const cancel = useCancelEnrolment(classId);
  return (
    <ConfirmDangerButton
      ask={{
        title: texts.cancelTitle,
        body: texts.cancelBody(className),
        confirmLabel: texts.cancelConfirm,
        cancelLabel: texts.cancelKeep,
      }}
      variant="ghost"
      busy={cancel.isPending}
      onConfirm={(close) =>
        cancel.mutate(undefined, {
          onSuccess: () => {
            notify(texts.cancelled, { tone: 'success' });
            navigate(paths.classroom.to(), { replace: true });
          },
          onError: () => notify(texts.cancelFailed, { tone: 'error' }),
          onSettled: close,
        })
      }
    >
      {texts.cancelEnrolment}
    </ConfirmDangerButton>
  );
}
