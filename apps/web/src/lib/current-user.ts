import { useQuery } from '@tanstack/react-query';
import { ROUTES } from '@sea/contract/paths';
import type { User } from '@sea/contract/users';
import { http } from './http.ts';
import { useLoggedIn } from './use-logged-in.ts';

/** Query key of the signed-in user; invalidate it after a profile change. */
export const CURRENT_USER_KEY = ['current-user'] as const;

export function fetchCurrentUser(): Promise<User> {
  return http<User>(ROUTES.users);
}

/** The signed-in user (`GET /api/users`), fetched only while logged in. */
export function useCurrentUser() {
  const loggedIn = useLoggedIn();
  return useQuery({ queryKey: CURRENT_USER_KEY, queryFn: fetchCurrentUser, enabled: loggedIn });
}
