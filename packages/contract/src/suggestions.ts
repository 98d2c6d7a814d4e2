import { z } from 'zod';
import { SearchQuerySchema } from './classes.ts';

/** Most classes and instructors `GET /api/search/suggest` answers. */
export const SUGGESTED_CLASSES_MAX = 5;
export const SUGGESTED_INSTRUCTORS_MAX = 3;

/** Query of `GET /api/search/suggest`: what the search box holds so far (blank answers no suggestion). */
export const SuggestQuerySchema = z.object({ q: SearchQuerySchema.optional() });

/** A class the search box suggests: its title, teacher's nickname and category. */
export const SuggestedClassSchema = z.object({
  id: z.number().int(),
  name: z.string(),
  teacher_nickname: z.string(),
  category: z.string(),
});
export type SuggestedClass = z.infer<typeof SuggestedClassSchema>;

/** An instructor the search box suggests (whose nickname holds what was typed), with a class at least. */
export const SuggestedInstructorSchema = z.object({
  id: z.string(),
  nickname: z.string(),
  profile_image_path: z.string().nullable(),
});
export type SuggestedInstructor = z.infer<typeof SuggestedInstructorSchema>;

/**
 * The answer of `GET /api/search/suggest`: up to SUGGESTED_CLASSES_MAX classes, best matches first (matched
 * as `GET /api/classes?q=` matches), and up to SUGGESTED_INSTRUCTORS_MAX instructors.
 */
export const SuggestionsSchema = z.object({
  classes: z.array(SuggestedClassSchema),
  instructors: z.array(SuggestedInstructorSchema),
});
export type Suggestions = z.infer<typeof SuggestionsSchema>;
