import type { ClassItem } from '@sea/contract/classes';

/** A class item as the server lists it, for component tests. */
export function classItem(id: number, overrides: Partial<ClassItem> = {}): ClassItem {
  return {
    id,
    user_id: `teacher-${id}`,
    instructor: `강사${id}`,
    category_id: 1,
    category: '디지털 드로잉',
    name: `강의 ${id}`,
    object: '목표',
    description: '설명',
    instructor_info: null,
    prerequisite: null,
    announcement: null,
    banner_image_path: null,
    is_active: false,
    student_count: id % 7,
    rating_average: null,
    review_count: 0,
    next_session_at: null,
    replay_count: 0,
    live_started_at: null,
    live_viewer_count: null,
    live_waiting: false,
    ...overrides,
  };
}

/** `count` classes with ids from `first` down (newest first, as lists are ordered). */
export function classItems(count: number, first = count): ClassItem[] {
  return Array.from({ length: count }, (_, index) => classItem(first - index));
}
