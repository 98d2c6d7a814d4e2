import { useState } from 'react';
import { CLASS_ROLES } from '@sea/contract/classes';
import { Button } from '../../../components/ui/button.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { downloadScheduleIcs } from '../api/download-schedule-ics.ts';
import { useClassRole } from '../api/get-class-role.ts';
import { CLASS_TEXTS } from '../texts.ts';

const texts = CLASS_TEXTS.schedule;

/** '캘린더에 추가': the class's whole schedule as an .ics file, for its teacher and students. */
export function AddToCalendarButton({ classId }: { classId: number }) {
  const { role } = useClassRole(classId);
  const notify = useNotify();
  const [busy, setBusy] = useState(false);
  if (role === CLASS_ROLES.none) return null;
  const download = () => {
    setBusy(true);
    downloadScheduleIcs(classId)
      .catch(() => notify(texts.calendarFailed, { tone: 'error' }))
      .finally(() => setBusy(false));
  };
  return (
    <Button size="sm" variant="secondary" disabled={busy} onClick={download}>
      {busy ? texts.calendarBusy : texts.addToCalendar}
    </Button>
  );
}
