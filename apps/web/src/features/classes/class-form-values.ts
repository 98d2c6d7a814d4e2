import type { z } from 'zod';
import type { ClassCreate, ClassCreateSchema } from '@sea/contract/classes';

/** What the class forms hold (the schema's input) and what a valid form gives (its output). */
export type ClassFormInput = ClassCreate;
export type ClassFormOutput = z.output<typeof ClassCreateSchema>;

/** The form's field names, for mapping the server's `invalid_fields` onto them. */
export const CLASS_FORM_FIELDS = [
  'categoryId',
  'name',
  'object',
  'description',
  'instructorInfo',
  'prerequisite',
  'announcement',
] as const satisfies ReadonlyArray<keyof ClassFormInput>;

/** The JSON part of create and update: every field present, a blank optional text sent as null. */
export function toClassDto(values: ClassFormOutput) {
  return {
    categoryId: values.categoryId,
    name: values.name,
    object: values.object,
    description: values.description,
    instructorInfo: values.instructorInfo ?? null,
    prerequisite: values.prerequisite ?? null,
    announcement: values.announcement ?? null,
  };
}
