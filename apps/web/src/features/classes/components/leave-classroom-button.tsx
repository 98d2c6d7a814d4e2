import { useState } from 'react';
import { useNavigate } from 'react-router';
import { ConfirmDangerButton } from '../../../components/ui/confirm-danger-button.tsx';
import { paths } from '../../../config/paths.ts';
import { CLASS_TEXTS } from '../texts.ts';

const texts = CLASS_TEXTS.live;

/**
 * The teacher's 'leave classroom': asks whether the lecture ends ('강의 종료': everyone leaves and the replay is
 * made) or the teacher only steps out ('잠시 나가기': the lecture goes on and they may come back), then goes to
 * the teacher dashboard.
 */
export function LeaveClassroomButton({
  classId,
  onLeave,
  onStepOut,
}: {
  classId: number;
  onLeave?: () => void | Promise<void>;
  onStepOut?: () => void | Promise<void>;
}) {
  const navigate = useNavigate();
  const [leaving, setLeaving] = useState(false);

  const leave = async (close: () => void, action: (() => void | Promise<void>) | undefined) => {
    setLeaving(true);
    try {
      await action?.();
    } finally {
      // Leaving never gets stuck: the dashboard is reached even if ending the broadcast failed.
      setLeaving(false);
      close();
      navigate(paths.dashboardTeacher.to(classId));
    }
  };

  return (
    <ConfirmDangerButton
      ask={{
        title: texts.leaveTitle,
        body: texts.leaveBody,
        confirmLabel: texts.leaveConfirm,
        alternative: { label: texts.stepOut, onClick: (close) => void leave(close, onStepOut) },
      }}
      busy={leaving}
      onConfirm={(close) => void leave(close, onLeave)}
    >
      {texts.leave}
    </ConfirmDangerButton>
  );
}
