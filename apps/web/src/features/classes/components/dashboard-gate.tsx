import { useEffect, useState, type ReactNode } from 'react';
import { Link, Navigate } from 'react-router';
import { CLASS_ROLES } from '@sea/contract/classes';
import { PageAlert } from '../../../components/ui/page-alert.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { useClassRole } from '../api/get-class-role.ts';
import { useDashboard } from '../api/get-dashboard.ts';
import type { Dashboard } from '../api/get-dashboard.ts';
import { CLASS_TEXTS } from '../texts.ts';
import { DashboardNotMember } from './dashboard-not-member.tsx';

/** How often a student's dashboard asks again, so 'enter live lecture' opens up when the class goes live. */
const STUDENT_REFRESH_MS = 20_000;

/**
 * Loads `GET /api/classes/{id}/dashboard` and renders the page for `role`. A member on the other role's
 * dashboard is moved to their own; someone who is neither is told the page is for enrolled students, with the
 * enrol button; another failure shows the catalogue's text with a way to the class introduction. Whether the
 * caller is a member is asked first (`GET /api/classes/{id}/role`, 200 either way, and known already when
 * they came from the class page): a stranger's browser then never asks for the dashboard, whose 418 it would
 * log as a failed request. Should the role not load, the dashboard is asked and its 418 says the same.
 * When a later reload fails (the student's refresh, the reload after a schedule change) the page stays, and
 * `reloadFailed` tells the parts that came with that request (schedule, student count) to say so.
 */
export function DashboardGate({
  classId,
  role,
  children,
}: {
  classId: number;
  role: 'teacher' | 'student';
  children: (dashboard: Dashboard, reloadFailed: boolean) => ReactNode;
}) {
  const relation = useClassRole(classId);
  const stranger = relation.known && relation.role === CLASS_ROLES.none;
  // Once asked, the dashboard stays asked while the role is asked again (the enrol button's own look at a
  // role that failed): pausing it would show the spinner, and the enrol button would mount and ask again.
  const [asked, setAsked] = useState(false);
  const ask = !relation.isLoading && !stranger;
  useEffect(() => {
    if (ask) setAsked(true);
  }, [ask]);
  const query = useDashboard(
    classId,
    role === 'student' ? STUDENT_REFRESH_MS : false,
    ask || (asked && !stranger),
  );
  if (stranger) return <DashboardNotMember classId={classId} />;
  // Pending too while the role is asked (the dashboard waits for it).
  if (query.isPending) return <Spinner label={CLASS_TEXTS.loading} />;
  if (query.data === undefined) {
    if (isHttpError(query.error, 418)) return <DashboardNotMember classId={classId} />;
    return (
      <PageAlert message={CLASS_TEXTS.dashboard.loadFailed}>
        <Link to={paths.lectureInfo.to(classId)}>{CLASS_TEXTS.dashboard.classInfo}</Link>
      </PageAlert>
    );
  }
  const dashboard = query.data;
  if (role === 'teacher' && dashboard.role !== CLASS_ROLES.teacher) {
    return <Navigate to={paths.dashboardStudent.to(classId)} replace />;
  }
  if (role === 'student' && dashboard.role !== CLASS_ROLES.student) {
    return <Navigate to={paths.dashboardTeacher.to(classId)} replace />;
  }
  return <>{children(dashboard, query.isError)}</>;
}
