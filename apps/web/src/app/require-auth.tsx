import { Navigate, Outlet, useLocation, useNavigation } from 'react-router';
import { rememberReturnTo } from '../lib/return-to.ts';
import { useLoggedIn } from '../lib/use-logged-in.ts';

/**
 * Layout route of the private pages: a logged-out visitor goes to /login and comes back after. A page that
 * is being left (a navigation under way, e.g. logging out on the way home) keeps rendering instead: sending
 * that visitor to /login would override where they were going.
 */
export function RequireAuth() {
  const loggedIn = useLoggedIn();
  const location = useLocation();
  const navigation = useNavigation();
  if (!loggedIn && navigation.state === 'idle') {
    rememberReturnTo(`${location.pathname}${location.search}`);
    return <Navigate to="/login" replace />;
  }
  return <Outlet />;
}
