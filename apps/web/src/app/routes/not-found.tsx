import { NotFound } from '../not-found.tsx';

/** Any unknown path. */
export function Component() {
  return <NotFound />;
}
