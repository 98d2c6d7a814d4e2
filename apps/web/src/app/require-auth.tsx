import { Navigate, Outlet, useLocation, useNavigation } from 'react-router';
import { rememberReturnTo } from '../lib/return-to.ts';
import { useLoggedIn } from '../lib/use-logged-in.ts';

/**
 * Layout route of the private pages: a logged-out visitor goes to /login and comes back after, and the page
 * is never rendered for them (it would only ask the API and get 401s). A page being left while logged out (a
 * navigation under way, e.g. logging out on the way home) shows nothing instead of going to /login, which
 * would override where they were going.
 */
export function RequireAuth() {
  const loggedIn = useLoggedIn();
  const location = useLocation();
  const navigation = useNavigation();
  if (!loggedIn) {
    if (navigation.state !== 'idle') return null;
    rememberReturnTo(`${location.pathname}${location.search}`);
    return <Navigate to="/login" replace />;
  }
  return <Outlet />;
}
