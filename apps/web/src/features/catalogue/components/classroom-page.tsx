import type { ReactNode } from 'react';
import { Link } from 'react-router';
import type { ClassItem } from '@sea/contract/classes';
import { AccountMenu } from '../../../components/ui/account-menu.tsx';
import { MyClassroomBreadcrumb } from '../../../components/ui/my-classroom-breadcrumb.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { useCategories } from '../../../lib/use-categories.ts';
import { useClassPages } from '../api/use-class-pages.ts';
import { CATALOGUE_TEXTS } from '../texts.ts';
import { useCategoryParam } from '../use-category-param.ts';
import { AccountHeading } from './account-heading.tsx';
import { CategoryFilter } from './category-filter.tsx';
import { ClassFeed, classTotal } from './class-feed.tsx';
import styles from './account-page.module.css';

/**
 * `/classroom`: the classes I am enrolled in, by category; a card leads to its student dashboard, and shows
 * at its foot what the route adds (the progress and '이어보기').
 */
export function ClassroomPage({ cardFooter }: { cardFooter?: (item: ClassItem) => ReactNode } = {}) {
  const [category, setCategory] = useCategoryParam();
  const categories = useCategories();
  const query = useClassPages('enrolled', category);
  const total = classTotal(query);

  return (
    <Page className={styles.page}>
      <MyClassroomBreadcrumb items={[{ label: CATALOGUE_TEXTS.classesIAttend }]} />
      <AccountHeading title={CATALOGUE_TEXTS.classroomHeading} />
      <AccountMenu />
      {categories.data && (
        <CategoryFilter categories={categories.data} value={category} onChange={setCategory} />
      )}
      <p className={styles.count}>
        {CATALOGUE_TEXTS.enrolledCount} <strong>{total === null ? '–' : CATALOGUE_TEXTS.count(total)}</strong>
      </p>
      <ClassFeed
        query={query}
        label={CATALOGUE_TEXTS.classesIAttend}
        cardProps={(item) => ({
          href: `/dashboard/student/${item.id}`,
          ...(cardFooter === undefined ? {} : { footer: cardFooter(item) }),
        })}
        // With a category chosen, 'nothing here' is about that category only.
        {...(category === null
          ? {
              empty: {
                message: CATALOGUE_TEXTS.emptyEnrolled,
                action: (
                  <Link to="/list" className={styles.open}>
                    {CATALOGUE_TEXTS.browseClasses}
                  </Link>
                ),
              },
            }
          : {})}
      />
    </Page>
  );
}
