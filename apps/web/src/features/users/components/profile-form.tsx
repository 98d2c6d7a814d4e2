import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { useNavigate } from 'react-router';
import type { z } from 'zod';
import { INTRODUCTION_MAX, NICKNAME_MAX, UserUpdateSchema } from '@sea/contract/users';
import type { User } from '@sea/contract/users';
import { Button } from '../../../components/ui/button.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { ImagePicker } from '../../../components/ui/image-picker.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { avatarFor } from '../../../lib/default-images.ts';
import { isHttpError } from '../../../lib/http-error.ts';
import { useUpdateProfile } from '../api/update-profile.ts';
import { USER_TEXTS } from '../texts.ts';
import { WithdrawButton } from './withdraw-button.tsx';
import styles from './profile-form.module.css';

/** The profile form: the nickname is required here, the e-mail optional (blank clears it). */
const ProfileSchema = UserUpdateSchema.required({ nickname: true });
type ProfileInput = z.input<typeof ProfileSchema>;
type ProfileOutput = z.output<typeof ProfileSchema>;

/**
 * Photo, nickname, e-mail and the instructor introduction with 'save' and 'withdraw'. Saving sends
 * `userUpdateDTO` and a new photo if one was chosen, then reloads the user's data (the form, the header).
 * 'Delete' drops a newly chosen photo first; with none chosen it removes the saved one on saving
 * (`profileImage: null`), showing the default sea-creature avatar meanwhile.
 */
export function ProfileForm({ user }: { user: User }) {
  const notify = useNotify();
  const navigate = useNavigate();
  const update = useUpdateProfile();
  const [photo, setPhoto] = useState<File | null>(null);
  const [removeSaved, setRemoveSaved] = useState(false);
  const hasSaved = user.profile_image_path !== null && !removeSaved;
  const [progress, setProgress] = useState<number | null>(null);
  const {
    register,
    handleSubmit,
    setError,
    reset,
    watch,
    formState: { errors, isSubmitting },
  } = useForm<ProfileInput, unknown, ProfileOutput>({
    resolver: zodResolver(ProfileSchema),
    defaultValues: {
      nickname: user.nickname,
      email: user.email ?? '',
      introduction: user.introduction ?? '',
    },
  });

  const onSubmit = handleSubmit(async (values) => {
    setProgress(photo ? 0 : null);
    try {
      const saved = await update.mutateAsync({
        profile: {
          nickname: values.nickname,
          email: values.email ?? null,
          introduction: values.introduction ?? null,
          ...(removeSaved && !photo ? { profileImage: null } : {}),
        },
        photo,
        ...(photo ? { onUploadProgress: setProgress } : {}),
      });
      setPhoto(null);
      setRemoveSaved(false);
      reset({ nickname: saved.nickname, email: saved.email ?? '', introduction: saved.introduction ?? '' });
      notify(USER_TEXTS.saved, { tone: 'success' });
    } catch (error) {
      if (isHttpError(error, 401)) {
        notify(USER_TEXTS.authFailed, { tone: 'error' });
        navigate(paths.login.to(), { replace: true });
        return;
      }
      console.error('Profile save failed', error);
      if (isHttpError(error)) {
        for (const [field, message] of Object.entries(error.invalidFields)) {
          if (field === 'nickname' || field === 'email' || field === 'introduction') {
            setError(field, { message });
          }
        }
      }
      const reason = isHttpError(error, 400, 409, 413, 415) ? error.messageKor : null;
      notify(reason ?? USER_TEXTS.saveFailed, { tone: 'error' });
    } finally {
      setProgress(null);
    }
  });

  const busy = isSubmitting || update.isPending;
  return (
    <form className={styles.form} onSubmit={onSubmit} noValidate>
      <ImagePicker
        label={USER_TEXTS.photo}
        shape="avatar"
        file={photo}
        onChange={(file) => {
          setPhoto(file);
          if (file) setRemoveSaved(false);
        }}
        onReject={() => notify(USER_TEXTS.photoInvalid, { tone: 'error' })}
        {...(photo || hasSaved ? { onDelete: () => (photo ? setPhoto(null) : setRemoveSaved(true)) } : {})}
        currentUrl={avatarFor(user.nickname, hasSaved ? user.profile_image_path : null)}
        progress={progress}
        disabled={busy}
        notes={
          <ul className={styles.notes}>
            {removeSaved && !photo && <li className={styles.pending}>{USER_TEXTS.photoRemovalPending}</li>}
            {USER_TEXTS.photoNotes.map((note) => (
              <li key={note}>{note}</li>
            ))}
          </ul>
        }
      />
      <FormField
        label={USER_TEXTS.nickname}
        required
        error={errors.nickname?.message}
        count={{ text: watch('nickname'), max: NICKNAME_MAX }}
      >
        {(control) => <input {...control} autoComplete="nickname" {...register('nickname')} />}
      </FormField>
      <FormField label={USER_TEXTS.email} error={errors.email?.message}>
        {(control) => (
          <input
            {...control}
            type="email"
            autoComplete="email"
            placeholder={USER_TEXTS.emailPlaceholder}
            {...register('email')}
          />
        )}
      </FormField>
      <FormField
        label={USER_TEXTS.introduction}
        hint={USER_TEXTS.introductionHint}
        error={errors.introduction?.message}
        count={{ text: watch('introduction'), max: INTRODUCTION_MAX }}
      >
        {(control) => <textarea {...control} rows={4} {...register('introduction')} />}
      </FormField>
      <div className={styles.actions}>
        <Button type="submit" size="lg" disabled={busy}>
          {busy ? USER_TEXTS.saving : USER_TEXTS.save}
        </Button>
        <WithdrawButton />
      </div>
    </form>
  );
}
