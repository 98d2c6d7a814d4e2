import { CalendarFeedCard } from '../../features/users/components/calendar-feed-card.tsx';
import { ProfilePage } from '../../features/users/components/profile-page.tsx';

export function Component() {
  return <ProfilePage below={<CalendarFeedCard />} />;
}
