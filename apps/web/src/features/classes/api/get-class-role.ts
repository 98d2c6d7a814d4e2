import { useQuery } from '@tanstack/react-query';
import { CLASS_ROLES } from '@sea/contract/classes';
import type { ClassRole } from '@sea/contract/classes';
import { ROUTES, toPath } from '@sea/contract/paths';
import { http } from '../../../lib/http.ts';
import { useLoggedIn } from '../../../lib/use-logged-in.ts';
import { classKeys } from '../../../lib/class-keys.ts';

function isClassRole(value: unknown): value is ClassRole {
  return (Object.values(CLASS_ROLES) as unknown[]).includes(value);
}

/** `GET /api/classes/{id}/role`; an answer that is no known role counts as none. */
export async function getClassRole(classId: number): Promise<ClassRole> {
  const role = await http<unknown>(toPath(ROUTES.classRole, { classId }));
  return isClassRole(role) ? role : CLASS_ROLES.none;
}

/**
 * The signed-in user's relation to a class. Logged out, or when the role cannot be loaded, the role is
 * none (product-spec section 4): the page then offers enrolment.
 */
export function useClassRole(classId: number): {
  role: ClassRole;
  isLoading: boolean;
  /** True when the role came from the server (not the logged-out or failed 'none'). */
  known: boolean;
} {
  const loggedIn = useLoggedIn();
  const query = useQuery({
    queryKey: classKeys.role(classId),
    // Told once per failed request, not on every render of every part that reads the role.
    queryFn: () =>
      getClassRole(classId).catch((error: unknown) => {
        console.warn('Role of class', classId, 'could not be loaded', error);
        throw error;
      }),
    enabled: loggedIn,
  });
  const role = loggedIn && query.data !== undefined ? query.data : CLASS_ROLES.none;
  return { role, isLoading: loggedIn && query.isPending, known: query.isSuccess };
}
