import { CallbackPage } from '../../features/auth/components/callback-page.tsx';

export function Component() {
  return <CallbackPage />;
}
