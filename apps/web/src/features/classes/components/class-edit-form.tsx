import { useNavigate } from 'react-router';
import type { Category } from '@sea/contract/categories';
import type { ClassItem } from '@sea/contract/classes';
import { MyClassroomBreadcrumb } from '../../../components/ui/my-classroom-breadcrumb.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { bannerFor } from '../../../lib/default-images.ts';
import { useUpdateClass } from '../api/update-class.ts';
import { editErrorMessage } from '../class-error-messages.ts';
import { CLASS_TEXTS } from '../texts.ts';
import { useClassForm } from '../use-class-form.ts';
import { BannerPicker } from './banner-picker.tsx';
import { ClassFormFields } from './class-form-fields.tsx';
import styles from './class-form.module.css';

const texts = CLASS_TEXTS.form;

/**
 * The class edit form, filled with the class. The required fields carry their hints; they are checked when
 * 'finish edit' is pressed (the button itself stays enabled). Success goes to the teacher dashboard.
 */
export function ClassEditForm({
  item,
  categories,
  categoriesFailed,
}: {
  item: ClassItem;
  categories: readonly Category[];
  categoriesFailed: boolean;
}) {
  const navigate = useNavigate();
  const notify = useNotify();
  const update = useUpdateClass(item.id);
  const { form, banner, setBanner, progress, onSubmit } = useClassForm({
    defaultValues: {
      categoryId: item.category_id,
      name: item.name,
      object: item.object,
      description: item.description,
      announcement: item.announcement ?? '',
      instructorInfo: item.instructor_info ?? '',
      prerequisite: item.prerequisite ?? '',
    },
    save: update.mutateAsync,
    onSaved: () => {
      notify(texts.editDone, { tone: 'success' });
      navigate(paths.dashboardTeacher.to(item.id), { replace: true });
    },
    errorMessage: editErrorMessage,
  });
  const {
    register,
    formState: { errors, isSubmitting },
  } = form;

  const busy = isSubmitting || update.isPending;
  return (
    <Page>
      <MyClassroomBreadcrumb
        items={[
          { label: CLASS_TEXTS.dashboard.teacherTitle, to: paths.dashboardTeacher.to(item.id) },
          { label: texts.editCrumb },
        ]}
      />
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <header className={styles.header}>
          <h1 className={styles.title}>{texts.editTitle}</h1>
        </header>
        <BannerPicker
          file={banner}
          onChange={setBanner}
          progress={progress}
          disabled={busy}
          currentUrl={bannerFor(item.id, item.banner_image_path)}
        />
        <ClassFormFields
          register={register}
          control={form.control}
          errors={errors}
          categories={categories}
          categoriesFailed={categoriesFailed}
        />
        <div className={styles.actions}>
          <Button variant="secondary" size="lg" onClick={() => navigate(-1)} disabled={busy}>
            {texts.cancel}
          </Button>
          <Button type="submit" size="lg" disabled={busy}>
            {busy ? texts.saving : texts.finishEdit}
          </Button>
        </div>
      </form>
    </Page>
  );
}
