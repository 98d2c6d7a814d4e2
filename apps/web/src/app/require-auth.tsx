import { Navigate, Outlet, useLocation } from 'react-router';
import { rememberReturnTo } from '../lib/return-to.ts';
import { useLoggedIn } from '../lib/use-logged-in.ts';

/** Layout route of the private pages: a logged-out visitor goes to /login and comes back after. */
export function RequireAuth() {
  const loggedIn = useLoggedIn();
  const location = useLocation();
  if (!loggedIn) {
    rememberReturnTo(`${location.pathname}${location.search}`);
    return <Navigate to="/login" replace />;
  }
  return <Outlet />;
}
