import { z } from 'zod';
import { ClassItemSchema } from './classes.ts';

/** Most classes an instructor page lists (newest first). */
export const INSTRUCTOR_CLASSES_MAX = 100;

/** Path parameter of `GET /api/instructors/{userId}`. */
export const InstructorParamsSchema = z.object({ userId: z.string().min(1).max(100) });

/**
 * `GET /api/instructors/{userId}`: a user's public instructor page. `student_count` adds the students of all
 * their classes; `rating_average` is the mean of every review of their classes (null without reviews).
 */
export const InstructorSchema = z.object({
  id: z.string(),
  nickname: z.string(),
  profile_image_path: z.string().nullable(),
  introduction: z.string().nullable(),
  student_count: z.number().int(),
  rating_average: z.number().nullable(),
  review_count: z.number().int(),
  classes: z.array(ClassItemSchema),
});
export type Instructor = z.infer<typeof InstructorSchema>;
