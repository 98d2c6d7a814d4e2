import type { ReactNode } from 'react';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { MyClassroomBreadcrumb } from '../../../components/ui/my-classroom-breadcrumb.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { bannerFor } from '../../../lib/default-images.ts';
import type { Dashboard } from '../api/get-dashboard.ts';
import { CLASS_TEXTS } from '../texts.ts';
import heading from './class-heading.module.css';
import styles from './dashboard-overview.module.css';
import { InfoSection } from './info-section.tsx';

const texts = CLASS_TEXTS.dashboard;

/**
 * What both dashboards show: banner, category, name, the role's actions, instructor, announcement
 * ('no announcement' when empty), description, goal, prerequisites (only when present), the schedule, and
 * the sections the route adds.
 */
export function DashboardOverview({
  dashboard,
  title,
  actions,
  aside,
  schedule,
  sections,
}: {
  dashboard: Dashboard;
  /** The page's name for the breadcrumb (student or teacher dashboard). */
  title: string;
  actions: ReactNode;
  /** Extra facts under the actions (the teacher's student count). */
  aside?: ReactNode;
  schedule: ReactNode;
  /** Full-width parts under the class's facts, which other features bring (replays, attendance). */
  sections?: ReactNode;
}) {
  const announcement = dashboard.announcement?.trim();
  const prerequisite = dashboard.prerequisite?.trim();
  return (
    <Page>
      <MyClassroomBreadcrumb items={[{ label: title }]} />
      <div className={styles.layout}>
        <header className={styles.hero}>
          <img
            className={heading.banner}
            src={bannerFor(dashboard.id, dashboard.banner_image_path)}
            alt={CLASS_TEXTS.info.bannerAlt(dashboard.name)}
          />
          <div className={styles.heading}>
            <p className={heading.category}>{dashboard.category}</p>
            <h1 className={heading.name}>{dashboard.name}</h1>
            {dashboard.is_active && <p className={styles.live}>{texts.liveNow}</p>}
            <div className={styles.actions}>{actions}</div>
            {aside}
          </div>
        </header>
        <div className={styles.body}>
          <Card title={texts.instructor}>
            <div className={styles.instructor}>
              <Avatar name={dashboard.instructor} size={56} alt="" />
              <div>
                <strong>{dashboard.instructor}</strong>
                <p className={styles.muted}>
                  {dashboard.instructor_info?.trim() || CLASS_TEXTS.info.noInstructorInfo}
                </p>
              </div>
            </div>
          </Card>
          <InfoSection
            title={texts.announcement}
            text={announcement ?? null}
            fallback={texts.noAnnouncement}
          />
          <InfoSection
            title={texts.description}
            text={dashboard.description}
            fallback={CLASS_TEXTS.info.noDescription}
          />
          <InfoSection title={texts.goal} text={dashboard.object} fallback={CLASS_TEXTS.info.noGoal} />
          {prerequisite && <InfoSection title={texts.prerequisite} text={prerequisite} fallback="" />}
          {schedule}
        </div>
        {sections !== undefined && <div className={styles.sections}>{sections}</div>}
      </div>
    </Page>
  );
}
