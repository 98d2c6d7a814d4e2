import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
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
  const [open, setOpen] = useState(false);
  const cancel = useCancelEnrolment(classId);
  return (
    <>
      <Button variant="ghost" onClick={() => setOpen(true)}>
        {texts.cancelEnrolment}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={texts.cancelTitle}
        body={texts.cancelBody(className)}
        confirmLabel={texts.cancelConfirm}
        cancelLabel={texts.cancelKeep}
        confirmVariant="danger"
        busy={cancel.isPending}
        onConfirm={() =>
          cancel.mutate(undefined, {
            onSuccess: () => {
              notify(texts.cancelled, { tone: 'success' });
              navigate(paths.classroom.to(), { replace: true });
            },
            onError: () => notify(texts.cancelFailed, { tone: 'error' }),
            onSettled: () => setOpen(false),
          })
        }
      />
    </>
  );
}
