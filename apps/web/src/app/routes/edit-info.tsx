import { ProfilePage } from '../../features/users/components/profile-page.tsx';

export function Component() {
  return <ProfilePage />;
}
