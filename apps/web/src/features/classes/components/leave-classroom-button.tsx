import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDangerButton } from '../../../components/ui/confirm-danger-button.tsx';
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
  const [leaving, setLeaving] = useState(false);

  const leave = async (close: () => void) => {
    setLeaving(true);
    try {
      await onLeave?.();
    } finally {
      // Leaving never gets stuck: the dashboard is reached even if ending the broadcast failed.
      setLeaving(false);
      close();
      navigate(paths.dashboardTeacher.to(classId));
    }
  };

  return (
    <ConfirmDangerButton
      ask={{ title: texts.leaveTitle, body: texts.leaveBody, confirmLabel: texts.leaveConfirm }}
      busy={leaving}
      onConfirm={(close) => void leave(close)}
    >
      {texts.leave}
    </ConfirmDangerButton>
  );
}
