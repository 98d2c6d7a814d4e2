import { ReplayRoute } from '../replay-route.tsx';

export function Component() {
  return <ReplayRoute role="student" />;
}
