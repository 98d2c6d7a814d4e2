import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import { ClassCreateSchema } from '@sea/contract/classes';
import { Breadcrumb } from '../../../components/ui/breadcrumb.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { ImagePicker } from '../../../components/ui/image-picker.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { useCreateClass } from '../api/create-class.ts';
import { createErrorMessage, invalidFieldsOf } from '../class-error-messages.ts';
import { CLASS_FORM_FIELDS, toClassDto } from '../class-form-values.ts';
import type { ClassFormInput, ClassFormOutput } from '../class-form-values.ts';
import { CLASS_TEXTS } from '../texts.ts';
import { useCategoriesNotice } from '../use-categories-notice.ts';
import { ClassFormFields } from './class-form-fields.tsx';
import styles from './class-form.module.css';

const texts = CLASS_TEXTS.form;

/**
 * `/lecture/open`: the create form. Validated with the contract's schema as the user types; 'open lecture'
 * stays disabled until the form is valid. Success opens a one-button dialog leading to the new class.
 */
export function ClassOpenPage() {
  const navigate = useNavigate();
  const notify = useNotify();
  const { categories, failed } = useCategoriesNotice();
  const creation = useCreateClass();
  const [banner, setBanner] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const [createdId, setCreatedId] = useState<number | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    formState: { errors, isValid, isSubmitting },
  } = useForm<ClassFormInput, unknown, ClassFormOutput>({
    resolver: zodResolver(ClassCreateSchema),
    mode: 'all',
    defaultValues: {
      name: '',
      object: '',
      description: '',
      announcement: '',
      instructorInfo: '',
      prerequisite: '',
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    setProgress(banner ? 0 : null);
    try {
      const created = await creation.mutateAsync({
        values: toClassDto(values),
        banner,
        ...(banner ? { onUploadProgress: setProgress } : {}),
      });
      setCreatedId(created.id);
    } catch (error) {
      for (const [field, message] of invalidFieldsOf(error, CLASS_FORM_FIELDS)) {
        setError(field, { message }, { shouldFocus: true });
      }
      notify(createErrorMessage(error), { tone: 'error' });
    } finally {
      setProgress(null);
    }
  });

  const busy = isSubmitting || creation.isPending;
  return (
    <Page>
      <Breadcrumb
        items={[
          { label: CLASS_TEXTS.home, to: paths.home.to() },
          { label: CLASS_TEXTS.myClassroom, to: paths.mypage.to() },
          { label: CLASS_TEXTS.classesIOpened, to: paths.mypage.to() },
          { label: texts.openCrumb },
        ]}
      />
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <header className={styles.header}>
          <h1 className={styles.title}>{texts.openTitle}</h1>
          <p className={styles.lead}>{texts.openLead}</p>
        </header>
        <ImagePicker
          label={texts.banner}
          file={banner}
          onChange={setBanner}
          onReject={() => notify(texts.bannerInvalid, { tone: 'error' })}
          notes={texts.bannerNotes}
          progress={progress}
          disabled={busy}
        />
        <ClassFormFields
          register={register}
          errors={errors}
          categories={categories}
          categoriesFailed={failed}
        />
        <Button type="submit" size="lg" block disabled={!isValid || busy}>
          {busy ? texts.opening : texts.open}
        </Button>
      </form>
      <ConfirmDialog
        open={createdId !== null}
        onOpenChange={() => undefined}
        title={texts.openedTitle}
        body={texts.openedBody}
        confirmLabel={texts.goToRoom}
        cancelLabel={null}
        onConfirm={() => {
          if (createdId !== null) navigate(paths.lectureInfo.to(createdId), { replace: true });
        }}
      />
    </Page>
  );
}
