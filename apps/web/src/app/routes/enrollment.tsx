import { EnrolmentDonePage } from '../../features/classes/components/enrolment-done-page.tsx';

export function Component() {
  return <EnrolmentDonePage />;
}
