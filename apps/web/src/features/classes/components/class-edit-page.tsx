import { Link } from 'react-router';
import { CLASS_ROLES } from '@sea/contract/classes';
import { PageAlert } from '../../../components/ui/page-alert.tsx';
import { Spinner } from '../../../components/ui/spinner.tsx';
import { paths } from '../../../config/paths.ts';
import { useClassRole } from '../api/get-class-role.ts';
import { useClass } from '../api/get-class.ts';
import { useClassId } from '../use-class-id.ts';
import { CLASS_TEXTS } from '../texts.ts';
import { useCategoriesNotice } from '../use-categories-notice.ts';
import { ClassEditForm } from './class-edit-form.tsx';

/**
 * `/dashboard/edit/{classId}`: loads the class, the categories and the caller's role, then shows the edit
 * form filled in (the category list must be there before the form, or the select could not show the class's
 * category). Someone who is not the class's teacher is told so instead of meeting a failed save.
 */
export function ClassEditPage() {
  const classId = useClassId();
  const query = useClass(classId);
  const categories = useCategoriesNotice();
  const { role, known, isLoading: roleLoading } = useClassRole(classId);

  if (query.isPending || !categories.settled || roleLoading) return <Spinner label={CLASS_TEXTS.loading} />;
  if (query.isError) {
    return <PageAlert message={CLASS_TEXTS.info.loadFailed} />;
  }
  // Only a role the server gave counts; if it could not be loaded, the save's own answer will tell.
  if (known && role !== CLASS_ROLES.teacher) {
    return (
      <PageAlert message={CLASS_TEXTS.form.teacherOnly}>
        <Link to={paths.lectureInfo.to(classId)}>{CLASS_TEXTS.dashboard.classInfo}</Link>
      </PageAlert>
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
