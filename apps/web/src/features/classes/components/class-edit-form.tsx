import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { Category } from '@sea/contract/categories';
import { ClassCreateSchema } from '@sea/contract/classes';
import type { ClassItem } from '@sea/contract/classes';
import { Breadcrumb } from '../../../components/ui/breadcrumb.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ImagePicker } from '../../../components/ui/image-picker.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { bannerFor } from '../../../lib/default-images.ts';
import { useUpdateClass } from '../api/update-class.ts';
import { editErrorMessage, invalidFieldsOf } from '../class-error-messages.ts';
import { CLASS_FORM_FIELDS, toClassDto } from '../class-form-values.ts';
import type { ClassFormInput, ClassFormOutput } from '../class-form-values.ts';
import { CLASS_TEXTS } from '../texts.ts';
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
  const [banner, setBanner] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isSubmitting },
  } = useForm<ClassFormInput, unknown, ClassFormOutput>({
    resolver: zodResolver(ClassCreateSchema),
    defaultValues: {
      categoryId: item.category_id,
      name: item.name,
      object: item.object,
      description: item.description,
      announcement: item.announcement ?? '',
      instructorInfo: item.instructor_info ?? '',
      prerequisite: item.prerequisite ?? '',
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    setProgress(banner ? 0 : null);
    try {
      await update.mutateAsync({
        values: toClassDto(values),
        banner,
        ...(banner ? { onUploadProgress: setProgress } : {}),
      });
      notify(texts.editDone, { tone: 'success' });
      navigate(paths.dashboardTeacher.to(item.id), { replace: true });
    } catch (error) {
      for (const [field, message] of invalidFieldsOf(error, CLASS_FORM_FIELDS)) {
        setError(field, { message }, { shouldFocus: true });
      }
      notify(editErrorMessage(error), { tone: 'error' });
    } finally {
      setProgress(null);
    }
  });

  const busy = isSubmitting || update.isPending;
  return (
    <Page>
      <Breadcrumb
        items={[
          { label: CLASS_TEXTS.home, to: paths.home.to() },
          { label: CLASS_TEXTS.myClassroom, to: paths.mypage.to() },
          { label: CLASS_TEXTS.dashboard.teacherTitle, to: paths.dashboardTeacher.to(item.id) },
          { label: texts.editCrumb },
        ]}
      />
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <header className={styles.header}>
          <h1 className={styles.title}>{texts.editTitle}</h1>
        </header>
        <ImagePicker
          label={texts.banner}
          file={banner}
          onChange={setBanner}
          onReject={() => notify(texts.bannerInvalid, { tone: 'error' })}
          currentUrl={bannerFor(item.id, item.banner_image_path)}
          notes={texts.bannerNotes}
          progress={progress}
          disabled={busy}
        />
        <ClassFormFields
          register={register}
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
