import { useState } from 'react';
import { Link } from 'react-router';
import { AccountMenu } from '../../../components/ui/account-menu.tsx';
import { MyClassroomBreadcrumb } from '../../../components/ui/my-classroom-breadcrumb.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { PlusIcon } from '../../../components/ui/icons.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { useClassPages } from '../api/use-class-pages.ts';
import { useDeleteClass } from '../../../lib/use-delete-class.ts';
import { CATALOGUE_TEXTS } from '../texts.ts';
import { AccountHeading } from './account-heading.tsx';
import type { ClassSummary } from './class-card.tsx';
import { ClassFeed, classTotal } from './class-feed.tsx';
import styles from './account-page.module.css';

/**
 * `/mypage`: the classes I opened, with their count, an 'open lecture' button, and per card 'edit' and
 * 'delete' (after a confirmation). A card leads to its teacher dashboard.
 */
export function MypagePage() {
  const notify = useNotify();
  const query = useClassPages('created', null);
  const remove = useDeleteClass();
  const [target, setTarget] = useState<ClassSummary | null>(null);
  const total = classTotal(query);

  function confirmDelete() {
    if (target === null) return;
    remove.mutate(target.id, {
      onSuccess: () => notify(CATALOGUE_TEXTS.deleted, { tone: 'success' }),
      onError: () => notify(CATALOGUE_TEXTS.deleteFailed, { tone: 'error' }),
      // The confirmation closes in every case (product-spec section 4).
      onSettled: () => setTarget(null),
    });
  }

  return (
    <Page className={styles.page}>
      <MyClassroomBreadcrumb items={[{ label: CATALOGUE_TEXTS.classesIOpened }]} />
      <AccountHeading
        title={CATALOGUE_TEXTS.mypageHeading}
        fallbackTitle={CATALOGUE_TEXTS.mypageHeadingFallback}
      />
      <AccountMenu />
      <div className={styles.toolbar}>
        <p className={styles.count}>
          {CATALOGUE_TEXTS.openedCount} <strong>{total === null ? '–' : CATALOGUE_TEXTS.count(total)}</strong>
        </p>
        <Link to="/lecture/open" className={styles.open}>
          <PlusIcon />
          {CATALOGUE_TEXTS.openClass}
        </Link>
      </div>
      <ClassFeed
        query={query}
        label={CATALOGUE_TEXTS.classesIOpened}
        cardProps={(item) => ({
          href: `/dashboard/teacher/${item.id}`,
          editHref: `/dashboard/edit/${item.id}`,
          onDelete: setTarget,
        })}
        empty={{
          message: CATALOGUE_TEXTS.emptyOpened,
          action: (
            <Link to="/lecture/open" className={styles.open}>
              <PlusIcon />
              {CATALOGUE_TEXTS.openClass}
            </Link>
          ),
        }}
      />
      <ConfirmDialog
        open={target !== null}
        onOpenChange={(open) => {
          if (!open) setTarget(null);
        }}
        title={CATALOGUE_TEXTS.deleteTitle}
        body={CATALOGUE_TEXTS.deleteBody}
        confirmLabel={CATALOGUE_TEXTS.deleteConfirm}
        confirmVariant="danger"
        busy={remove.isPending}
        onConfirm={confirmDelete}
      />
    </Page>
  );
}
