import { SignUpPage } from '../../features/auth/components/sign-up-page.tsx';

export function Component() {
  return <SignUpPage />;
}
