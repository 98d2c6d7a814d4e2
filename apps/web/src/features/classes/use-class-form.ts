import { zodResolver } from '@hookform/resolvers/zod';
import { useState } from 'react';
import { useForm } from 'react-hook-form';
import { ClassCreateSchema } from '@sea/contract/classes';
import type { ClassCreate } from '@sea/contract/classes';
import { useNotify } from '../../components/ui/use-notify.ts';
import { invalidFieldsOf } from './class-error-messages.ts';
import { CLASS_FORM_FIELDS, toClassDto } from './class-form-values.ts';
import type { ClassFormInput, ClassFormOutput } from './class-form-values.ts';

/** What a class form sends: the create/update payload, the banner, and the upload's progress callback. */
export type ClassSave<T> = (input: {
  values: ClassCreate;
  banner: File | null;
  onUploadProgress?: (fraction: number) => void;
}) => Promise<T>;

export type ClassFormOptions<T> = {
  defaultValues: Partial<ClassFormInput>;
  /** Validate while the user types (the create form, whose submit stays disabled until valid). */
  validateWhileTyping?: boolean;
  save: ClassSave<T>;
  onSaved: (saved: T) => void;
  /** The notification text for a failed save. */
  errorMessage: (error: unknown) => string;
};

/**
 * The state and submit flow the open and edit forms share: react-hook-form with the contract's schema, the
 * chosen banner and its upload progress, and on failure the server's `invalid_fields` on their fields plus a
 * notification.
 */
export function useClassForm<T>({
  defaultValues,
  validateWhileTyping = false,
  save,
  onSaved,
  errorMessage,
}: ClassFormOptions<T>) {
  const notify = useNotify();
  const [banner, setBanner] = useState<File | null>(null);
  const [progress, setProgress] = useState<number | null>(null);
  const form = useForm<ClassFormInput, unknown, ClassFormOutput>({
    resolver: zodResolver(ClassCreateSchema),
    ...(validateWhileTyping ? { mode: 'all' as const } : {}),
    defaultValues,
  });

  const onSubmit = form.handleSubmit(async (values) => {
    setProgress(banner ? 0 : null);
    try {
      onSaved(
        await save({
          values: toClassDto(values),
          banner,
          ...(banner ? { onUploadProgress: setProgress } : {}),
        }),
      );
    } catch (error) {
      for (const [field, message] of invalidFieldsOf(error, CLASS_FORM_FIELDS)) {
        form.setError(field, { message }, { shouldFocus: true });
      }
      notify(errorMessage(error), { tone: 'error' });
    } finally {
      setProgress(null);
    }
  });

  return { form, banner, setBanner, progress, onSubmit };
}
