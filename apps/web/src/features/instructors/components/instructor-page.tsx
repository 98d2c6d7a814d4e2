import type { ReactNode } from 'react';
import type { ClassItem } from '@sea/contract/classes';
import { Avatar } from '../../../components/ui/avatar.tsx';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { PageAlert } from '../../../components/ui/page-alert.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useInstructor } from '../api/get-instructor.ts';
import { INSTRUCTOR_TEXTS as texts } from '../texts.ts';
import styles from './instructor-page.module.css';

export type InstructorPageProps = {
  userId: string;
  /** The instructor's classes as the route shows them (the catalogue's cards). */
  renderClasses: (classes: ClassItem[], label: string) => ReactNode;
};

/** `/instructor/{userId}`: avatar, nickname, introduction, totals and the instructor's classes. */
export function InstructorPage({ userId, renderClasses }: InstructorPageProps) {
  const query = useInstructor(userId);
  if (query.isPending) return <Spinner label={texts.loading} />;
  if (query.isError) {
    return <PageAlert message={texts.loadFailed} />;
  }
  const instructor = query.data;
  return (
    <Page className={styles.page}>
      <header className={styles.profile}>
        <Avatar name={instructor.nickname} src={instructor.profile_image_path} size={96} alt="" />
        <div className={styles.who}>
          <h1 className={styles.name}>{texts.heading(instructor.nickname)}</h1>
          <dl className={styles.stats} aria-label={texts.stats}>
            <div>
              <dt>{texts.students}</dt>
              <dd>{texts.studentsValue(instructor.student_count)}</dd>
            </div>
            <div>
              <dt>{texts.rating}</dt>
              <dd>{texts.ratingValue(instructor.rating_average, instructor.review_count)}</dd>
            </div>
            <div>
              <dt>{texts.classCount}</dt>
              <dd>{texts.classCountValue(instructor.classes.length)}</dd>
            </div>
          </dl>
        </div>
      </header>
      <section aria-labelledby="instructor-intro" className={styles.section}>
        <h2 id="instructor-intro" className={styles.title}>
          {texts.introduction}
        </h2>
        <p className={styles.intro}>{instructor.introduction ?? texts.noIntroduction}</p>
      </section>
      <section aria-labelledby="instructor-classes" className={styles.section}>
        <h2 id="instructor-classes" className={styles.title}>
          {texts.classes}
        </h2>
        {instructor.classes.length === 0 ? (
          <EmptyState message={texts.noClasses} />
        ) : (
          renderClasses(instructor.classes, texts.classes)
        )}
      </section>
    </Page>
  );
}
