import { useParams } from 'react-router';
import { EmptyState } from '../../../components/ui/empty-state.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { useClass } from '../api/get-class.ts';
import { parseClassId } from '../parse-class-id.ts';
import { CLASS_TEXTS } from '../texts.ts';
import { useCategoriesNotice } from '../use-categories-notice.ts';
import { ClassEditForm } from './class-edit-form.tsx';

/**
 * `/dashboard/edit/{classId}`: loads the class and the categories, then shows the edit form filled in (the
 * category list must be there before the form, or the select could not show the class's category).
 */
export function ClassEditPage() {
  const classId = parseClassId(useParams().classId) ?? 0;
  const query = useClass(classId);
  const categories = useCategoriesNotice();

  if (query.isPending || !categories.settled) return <Spinner label={CLASS_TEXTS.loading} />;
  if (query.isError) {
    return (
      <Page>
        <div role="alert">
          <EmptyState message={CLASS_TEXTS.info.loadFailed} />
        </div>
      </Page>
    );
  }
  return (
    <ClassEditForm
      item={query.data}
      categories={categories.categories}
      categoriesFailed={categories.failed}
    />
  );
}
