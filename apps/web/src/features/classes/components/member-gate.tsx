import { useEffect, type ReactNode } from 'react';
import { CLASS_ROLES } from '@sea/contract/classes';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useClassRole } from '../api/get-class-role.ts';
import { CLASS_TEXTS } from '../texts.ts';

/**
 * A page only the class's teacher and students may use (a live room, a replay): whether the caller is a member
 * is asked first (`GET /api/classes/{id}/role`, 200 either way, and known already when they came from the
 * class page or the dashboard), so a stranger's browser never asks for what would be refused with a 418 it
 * logs as a failed request. A stranger gets `stranger` (and `onStranger` runs once: the room leaves for the
 * class introduction); a member, a visitor who is not logged in (the page's own requests send them to the
 * login) and anybody whose role could not be loaded (the page's own refusal then says the same) get
 * `children`, which mount only then.
 */
export function MemberGate({
  classId,
  stranger = null,
  onStranger,
  children,
}: {
  classId: number;
  stranger?: ReactNode;
  onStranger?: () => void;
  children: ReactNode;
}) {
  const relation = useClassRole(classId);
  const isStranger = relation.known && relation.role === CLASS_ROLES.none;
  useEffect(() => {
    if (isStranger) onStranger?.();
  }, [isStranger, onStranger]);
  if (relation.isLoading) return <Spinner label={CLASS_TEXTS.loading} />;
  if (isStranger) return <>{stranger}</>;
  return <>{children}</>;
}
