import { useClassProgress } from '../api/get-progress.ts';
import { PROGRESS_TEXTS } from '../texts.ts';
import { ClassProgressSummary } from './class-progress-summary.tsx';

/** A class card's progress line in '내 강의실' (nothing while it loads or if it fails: the card still leads on). */
export function ClassProgressLine({ classId, className }: { classId: number; className: string }) {
  const progress = useClassProgress(classId);
  if (progress.data === undefined) return null;
  return (
    <ClassProgressSummary
      classId={classId}
      label={PROGRESS_TEXTS.barLabel(className)}
      progress={progress.data}
    />
  );
}
