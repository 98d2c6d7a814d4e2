import type { ReactNode } from 'react';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { Breadcrumb } from '../../../components/ui/breadcrumb.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { paths } from '../../../config/paths.ts';
import { bannerFor } from '../../../lib/default-images.ts';
import type { Dashboard } from '../api/get-dashboard.ts';
import { CLASS_TEXTS } from '../texts.ts';
import styles from './dashboard-overview.module.css';

const texts = CLASS_TEXTS.dashboard;

/**
 * What both dashboards show: banner, category, name, the role's actions, instructor, announcement
 * ('no announcement' when empty), description, goal, prerequisites (only when present) and the schedule.
 */
export function DashboardOverview({
  dashboard,
  title,
  actions,
  aside,
  schedule,
}: {
  dashboard: Dashboard;
  /** The page's name for the breadcrumb (student or teacher dashboard). */
  title: string;
  actions: ReactNode;
  /** Extra facts under the actions (the teacher's student count). */
  aside?: ReactNode;
  schedule: ReactNode;
}) {
  const announcement = dashboard.announcement?.trim();
  const prerequisite = dashboard.prerequisite?.trim();
  return (
    <Page>
      <Breadcrumb
        items={[
          { label: CLASS_TEXTS.home, to: paths.home.to() },
          { label: CLASS_TEXTS.myClassroom, to: paths.mypage.to() },
          { label: title },
        ]}
      />
      <div className={styles.layout}>
        <header className={styles.hero}>
          <img
            className={styles.banner}
            src={bannerFor(dashboard.id, dashboard.banner_image_path)}
            alt={CLASS_TEXTS.info.bannerAlt(dashboard.name)}
          />
          <div className={styles.heading}>
            <p className={styles.category}>{dashboard.category}</p>
            <h1 className={styles.name}>{dashboard.name}</h1>
            {dashboard.is_active && <p className={styles.live}>{texts.liveNow}</p>}
            <div className={styles.actions}>{actions}</div>
            {aside}
          </div>
        </header>
        <div className={styles.body}>
          <section className={styles.card} aria-labelledby="dashboard-instructor">
            <h2 id="dashboard-instructor" className={styles.cardTitle}>
              {texts.instructor}
            </h2>
            <div className={styles.instructor}>
              <Avatar name={dashboard.instructor} size={56} alt="" />
              <div>
                <strong>{dashboard.instructor}</strong>
                <p className={styles.muted}>
                  {dashboard.instructor_info?.trim() || CLASS_TEXTS.info.noInstructorInfo}
                </p>
              </div>
            </div>
          </section>
          <TextCard
            title={texts.announcement}
            text={announcement || texts.noAnnouncement}
            muted={!announcement}
          />
          <TextCard title={texts.description} text={dashboard.description} />
          <TextCard title={texts.goal} text={dashboard.object} />
          {prerequisite && <TextCard title={texts.prerequisite} text={prerequisite} />}
          {schedule}
        </div>
      </div>
    </Page>
  );
}

function TextCard({ title, text, muted = false }: { title: string; text: string; muted?: boolean }) {
  return (
    <section className={styles.card}>
      <h2 className={styles.cardTitle}>{title}</h2>
      <p className={muted ? `${styles.text} ${styles.muted}` : styles.text}>{text}</p>
    </section>
  );
}
