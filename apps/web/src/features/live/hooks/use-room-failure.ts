import { useCallback, useRef } from 'react';
import { useNavigate } from 'react-router';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { logout } from '../../../lib/logout.ts';
import { rememberReturnTo } from '../../../lib/return-to.ts';
import { roomFailure, type RoomFailure } from '../room-failure.ts';

/**
 * Handles a room's failed entry (see {@link roomFailure}): a failure with somewhere to go is told as a notice
 * and the room is left for it (replacing the room in the history, so 'back' does not enter it again); the
 * others are returned for the room to show. After a 401 the session is over: logged out, and the login
 * comes back to this room. The returned function keeps its identity.
 */
export function useRoomFailure(
  role: 'teacher' | 'student',
  classId: number,
): (cause: unknown) => RoomFailure {
  const notify = useNotify();
  const navigate = useNavigate();
  // The latest notify/navigate without making the rooms reconnect when their identity changes.
  const latest = useRef<(cause: unknown) => RoomFailure>(() => roomFailure(undefined, role, classId));
  latest.current = (cause) => {
    const failure = roomFailure(cause, role, classId);
    if (failure.to === null) return failure;
    if (failure.kind === 'loginAgain') {
      logout();
      rememberReturnTo(role === 'teacher' ? paths.liveTeacher.to(classId) : paths.liveStudent.to(classId));
    }
    notify(failure.message, { tone: 'error' });
    void navigate(failure.to, { replace: true });
    return failure;
  };
  return useCallback((cause: unknown) => latest.current(cause), []);
}
