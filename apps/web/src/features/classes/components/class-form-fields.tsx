import { useWatch, type Control, type FieldErrors, type UseFormRegister } from 'react-hook-form';
import type { Category } from '@sea/contract/categories';
import { CLASS_NAME_MAX } from '@sea/contract/classes';
import { FormField } from '../../../components/ui/form-field.tsx';
import type { ClassFormInput } from '../class-form-values.ts';
import { CLASS_TEXTS } from '../texts.ts';

const texts = CLASS_TEXTS.form;

export type ClassFormFieldsProps = {
  register: UseFormRegister<ClassFormInput>;
  control: Control<ClassFormInput>;
  errors: FieldErrors<ClassFormInput>;
  categories: readonly Category[];
  categoriesFailed: boolean;
};

/** An empty choice is no category: the schema then reports 'category is required'. */
function toCategoryId(value: unknown): number | undefined {
  if (value === '' || value === undefined || value === null) return undefined;
  return Number(value);
}

/** The text fields the open and edit forms share: category, title, goal, description and the optional texts. */
export function ClassFormFields({
  register,
  control,
  errors,
  categories,
  categoriesFailed,
}: ClassFormFieldsProps) {
  const name = useWatch({ control, name: 'name' });
  return (
    <>
      <FormField
        label={texts.category}
        required
        error={errors.categoryId?.message}
        hint={categoriesFailed ? texts.categoriesFailed : undefined}
      >
        {(control) => (
          <select {...control} {...register('categoryId', { setValueAs: toCategoryId })}>
            <option value="">{texts.categoryPlaceholder}</option>
            {categories.map((category) => (
              <option key={category.id} value={category.id}>
                {category.name}
              </option>
            ))}
          </select>
        )}
      </FormField>
      <FormField
        label={texts.name}
        required
        error={errors.name?.message}
        count={{ text: name, max: CLASS_NAME_MAX }}
      >
        {(control) => <input {...control} placeholder={texts.namePlaceholder} {...register('name')} />}
      </FormField>
      <FormField label={texts.goal} required error={errors.object?.message}>
        {(control) => <textarea {...control} rows={3} {...register('object')} />}
      </FormField>
      <FormField label={texts.description} required error={errors.description?.message}>
        {(control) => <textarea {...control} rows={6} {...register('description')} />}
      </FormField>
      <FormField label={texts.announcement} hint={texts.optional} error={errors.announcement?.message}>
        {(control) => <textarea {...control} rows={3} {...register('announcement')} />}
      </FormField>
      <FormField label={texts.instructorInfo} hint={texts.optional} error={errors.instructorInfo?.message}>
        {(control) => <textarea {...control} rows={3} {...register('instructorInfo')} />}
      </FormField>
      <FormField label={texts.prerequisite} hint={texts.optional} error={errors.prerequisite?.message}>
        {(control) => <textarea {...control} rows={3} {...register('prerequisite')} />}
      </FormField>
    </>
  );
}
