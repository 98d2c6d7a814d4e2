import { HomePage } from '../../features/catalogue/components/home-page.tsx';

export function Component() {
  return <HomePage />;
}
