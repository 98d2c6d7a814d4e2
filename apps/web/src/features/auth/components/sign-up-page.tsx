import { zodResolver } from '@hookform/resolvers/zod';
import { useEffect, useState } from 'react';
import { useForm } from 'react-hook-form';
import { useLocation, useNavigate } from 'react-router';
import { NICKNAME_MAX, SignupSchema } from '@sea/contract/users';
import type { Signup } from '@sea/contract/users';
import type { TokenPair } from '@sea/contract/auth';
import { Button } from '../../../components/ui/button.tsx';
import { FormField } from '../../../components/ui/form-field.tsx';
import { ImagePicker } from '../../../components/ui/image-picker.tsx';
import { Page } from '../../../components/ui/page.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { setTokens } from '../../../lib/auth-tokens.ts';
import { takeReturnTo } from '../../../lib/return-to.ts';
import { useSignUp } from '../api/sign-up.ts';
import { signUpErrorMessage } from '../sign-up-error-message.ts';
import { AUTH_TEXTS } from '../texts.ts';
import styles from './sign-up-page.module.css';

function tokensFrom(state: unknown): TokenPair | null {
  if (typeof state !== 'object' || state === null) return null;
  const { accessToken, refreshToken } = state as Record<string, unknown>;
  if (typeof accessToken !== 'string' || accessToken === '') return null;
  if (typeof refreshToken !== 'string' || refreshToken === '') return null;
  return { accessToken, refreshToken };
}

type FormValues = Signup;

/**
 * `/sign-info`: profile photo, required nickname and optional e-mail (blank is sent as null), with the
 * tokens the login callback passed in navigation state. Success stores the tokens and goes home.
 */
export function SignUpPage() {
  const location = useLocation();
  const navigate = useNavigate();
  const notify = useNotify();
  const tokens = tokensFrom(location.state);
  const [photo, setPhoto] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const signUp = useSignUp();
  const {
    register,
    handleSubmit,
    setError,
    watch,
    formState: { errors },
  } = useForm<FormValues, unknown, { nickname: string; email: string | null }>({
    resolver: zodResolver(SignupSchema),
    defaultValues: { nickname: '', email: '' },
  });

  useEffect(() => {
    if (tokens === null) {
      notify(AUTH_TEXTS.noToken, { tone: 'error' });
      navigate('/login', { replace: true });
    }
    // Only on arrival: the tokens come once, in the navigation state.
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const onSubmit = handleSubmit(async (profile) => {
    if (tokens === null) {
      notify(AUTH_TEXTS.noToken, { tone: 'error' });
      return;
    }
    setProgress(photo ? 0 : null);
    try {
      await signUp.mutateAsync({
        profile,
        photo,
        accessToken: tokens.accessToken,
        ...(photo ? { onUploadProgress: setProgress } : {}),
      });
      setTokens(tokens);
      notify(AUTH_TEXTS.signUpDone, { tone: 'success' });
      navigate(takeReturnTo(), { replace: true });
    } catch (error) {
      const { message, fields } = signUpErrorMessage(error);
      for (const [field, fieldMessage] of Object.entries(fields)) {
        if (field === 'nickname' || field === 'email') setError(field, { message: fieldMessage });
      }
      notify(message, { tone: 'error' });
    } finally {
      setProgress(null);
    }
  });

  return (
    <Page className={styles.page}>
      <form className={styles.form} onSubmit={onSubmit} noValidate>
        <h1 className={styles.title}>{AUTH_TEXTS.signUpTitle}</h1>
        <p className={styles.lead}>{AUTH_TEXTS.signUpLead}</p>
        <ImagePicker
          label={AUTH_TEXTS.photo}
          shape="avatar"
          file={photo}
          onChange={setPhoto}
          onReject={() => notify(AUTH_TEXTS.photoInvalid, { tone: 'error' })}
          onDelete={() => setPhoto(null)}
          notes={AUTH_TEXTS.photoNotes}
          progress={progress}
          disabled={signUp.isPending}
        />
        <FormField
          label={AUTH_TEXTS.nickname}
          required
          hint={AUTH_TEXTS.nicknameHelper}
          error={errors.nickname?.message}
          count={{ text: watch('nickname'), max: NICKNAME_MAX }}
        >
          {(control) => <input {...control} autoComplete="nickname" {...register('nickname')} />}
        </FormField>
        <FormField label={AUTH_TEXTS.email} error={errors.email?.message}>
          {(control) => (
            <input
              {...control}
              type="email"
              autoComplete="email"
              placeholder={AUTH_TEXTS.emailPlaceholder}
              {...register('email')}
            />
          )}
        </FormField>
        <Button type="submit" size="lg" block disabled={signUp.isPending}>
          {signUp.isPending ? AUTH_TEXTS.submitting : AUTH_TEXTS.complete}
        </Button>
      </form>
    </Page>
  );
}
