import { useState } from 'react';
import { useNavigate } from 'react-router';
import { MyClassroomBreadcrumb } from '../../../components/ui/my-classroom-breadcrumb.tsx';
import { Button } from '../../../components/ui/button.tsx';
import { ConfirmDialog } from '../../../components/ui/confirm-dialog.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { paths } from '../../../config/paths.ts';
import { useCreateClass } from '../api/create-class.ts';
import { createErrorMessage } from '../class-error-messages.ts';
import { CLASS_TEXTS } from '../texts.ts';
import { useCategoriesNotice } from '../use-categories-notice.ts';
import { useClassForm } from '../use-class-form.ts';
import { BannerPicker } from './banner-picker.tsx';
import { ClassFormFields } from './class-form-fields.tsx';
import styles from './class-form.module.css';

const texts = CLASS_TEXTS.form;

/**
 * `/lecture/open`: the create form. Validated with the contract's schema as the user types; 'open lecture'
 * stays disabled until the form is valid. Success opens a one-button dialog leading to the new class.
 */
export function ClassOpenPage() {
  const navigate = useNavigate();
  const { categories, failed } = useCategoriesNotice();
  const creation = useCreateClass();
  const [createdId, setCreatedId] = useState<number | null>(null);
  const { form, banner, setBanner, progress, onSubmit } = useClassForm({
    validateWhileTyping: true,
    defaultValues: {
      name: '',
      object: '',
      description: '',
      announcement: '',
      instructorInfo: '',
      prerequisite: '',
    },
    save: creation.mutateAsync,
    onSaved: (created) => setCreatedId(created.id),
    errorMessage: createErrorMessage,
  });
  const {
    register,
    formState: { errors, isValid, isSubmitting },
  } = form;

  const busy = isSubmitting || creation.isPending;
  return (
    <Page>
      <MyClassroomBreadcrumb
        items={[{ label: CLASS_TEXTS.classesIOpened, to: paths.mypage.to() }, { label: texts.openCrumb }]}
      />
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <header className={styles.header}>
          <h1 className={styles.title}>{texts.openTitle}</h1>
          <p className={styles.lead}>{texts.openLead}</p>
        </header>
        <BannerPicker file={banner} onChange={setBanner} progress={progress} disabled={busy} />
        <ClassFormFields
          register={register}
          control={form.control}
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
