import type { ReactNode } from 'react';
import type { ClassItem } from '@sea/contract/classes';
import { MyClassroomBreadcrumb } from '../../../components/ui/my-classroom-breadcrumb.tsx';
import { RetryButton } from '../../../components/ui/load-failed.tsx';
import { PageAlert } from '../../../components/ui/page-alert.tsx';
import { Card } from '../../../components/ui/card.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { bannerFor, instructorImageFor } from '../../../lib/default-images.ts';
import { useClass } from '../api/get-class.ts';
import { useClassId } from '../use-class-id.ts';
import { CLASS_TEXTS } from '../texts.ts';
import { ClassActionButton } from './class-action-button.tsx';
import { ClassStats } from './class-stats.tsx';
import { InfoSection } from './info-section.tsx';
import { ReplaysMark } from './replays-mark.tsx';
import { UpcomingSchedule } from './upcoming-schedule.tsx';
import heading from './class-heading.module.css';
import styles from './class-info-page.module.css';

const texts = CLASS_TEXTS.info;

export type ClassInfoPageProps = {
  /** The '강사 소개' card's content: the instructor's own (the route composes it); else the class's text. */
  instructorIntro?: (item: ClassItem) => ReactNode;
  /** What follows the introduction (the route adds the reviews). */
  below?: (item: ClassItem) => ReactNode;
  /** The teacher's name, as a link where the route has somewhere to lead. */
  instructorLink?: (item: ClassItem) => ReactNode;
};

/**
 * `/lecture/info/{classId}`: the class introduction, the next live sessions first among its sections and
 * whether it has replays beside the action. One column at 1184 px and below; above, the banner and
 * texts on the left and a sticky summary with the one action on the right, under a breadcrumb.
 */
export function ClassInfoPage({ below, instructorLink, instructorIntro }: ClassInfoPageProps = {}) {
  const classId = useClassId();
  const query = useClass(classId);

  if (query.isPending) return <Spinner label={CLASS_TEXTS.loading} />;
  if (query.isError) {
    return (
      <PageAlert message={texts.loadFailed}>
        <RetryButton onRetry={() => void query.refetch()} />
      </PageAlert>
    );
  }
  const item = query.data;
  const name = item.name.trim() || texts.noName;
  return (
    <Page>
      <MyClassroomBreadcrumb items={[{ label: texts.title }]} />
      <article className={styles.layout}>
        <img
          className={`${heading.banner} ${styles.banner}`}
          src={bannerFor(item.id, item.banner_image_path)}
          alt={texts.bannerAlt(name)}
        />
        <aside className={styles.summary}>
          <p className={heading.category}>{item.category.trim() || texts.noCategory}</p>
          <h1 className={heading.name}>{name}</h1>
          <p className={styles.instructorName}>
            {instructorLink?.(item) ?? CLASS_TEXTS.live.instructor(item.instructor)}
          </p>
          <ClassStats item={item} />
          <ReplaysMark classId={item.id} count={item.replay_count} />
          <ClassActionButton classId={item.id} />
        </aside>
        <div className={styles.details}>
          <UpcomingSchedule classId={item.id} />
          <InfoSection title={texts.goal} text={item.object} fallback={texts.noGoal} />
          <InfoSection title={texts.description} text={item.description} fallback={texts.noDescription} />
          {instructorIntro ? (
            <Card title={texts.instructor}>{instructorIntro(item)}</Card>
          ) : (
            <InfoSection
              title={texts.instructor}
              text={item.instructor_info}
              fallback={texts.noInstructorInfo}
            >
              <div className={styles.instructor}>
                <img
                  src={instructorImageFor(item.instructor)}
                  alt={texts.instructorImageAlt(item.instructor)}
                  width={64}
                  height={64}
                />
                <strong>{item.instructor}</strong>
              </div>
            </InfoSection>
          )}
          <InfoSection title={texts.prerequisite} text={item.prerequisite} fallback={texts.noPrerequisite} />
        </div>
      </article>
      {below?.(item)}
    </Page>
  );
}
