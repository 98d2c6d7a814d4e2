import { useState } from 'react';
import { useNavigate } from 'react-router';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { paths } from '../../../config/paths.ts';
import { CLASS_TEXTS } from '../texts.ts';

const texts = CLASS_TEXTS.live;

/** The teacher's 'leave classroom': confirms that the lecture is over, then goes to the teacher dashboard. */
export function LeaveClassroomButton({
  classId,
  onLeave,
}: {
  classId: number;
  onLeave?: () => void | Promise<void>;
}) {
  const navigate = useNavigate();
  const [open, setOpen] = useState(false);
  const [leaving, setLeaving] = useState(false);

  const leave = async () => {
    setLeaving(true);
    try {
      await onLeave?.();
    } finally {
      // Leaving never gets stuck: the dashboard is reached even if ending the broadcast failed.
      setLeaving(false);
      setOpen(false);
      navigate(paths.dashboardTeacher.to(classId));
    }
  };

  return (
    <>
      <Button variant="danger" onClick={() => setOpen(true)}>
        {texts.leave}
      </Button>
      <ConfirmDialog
        open={open}
        onOpenChange={setOpen}
        title={texts.leaveTitle}
        body={texts.leaveBody}
        confirmLabel={texts.leaveConfirm}
        confirmVariant="danger"
        busy={leaving}
        onConfirm={() => void leave()}
      />
    </>
  );
}
