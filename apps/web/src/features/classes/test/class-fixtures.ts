import type { ClassItem } from '@sea/contract/classes';

/** A class item as the server answers it, with overrides. */
export function classItem(overrides: Partial<ClassItem> = {}): ClassItem {
  return {
    id: 7,
    user_id: 'teacher-1',
    instructor: '문어선생',
    category_id: 13,
    category: '프로그래밍',
    name: '바다에서 배우는 타입스크립트',
    object: '타입으로 버그를 줄여요.',
    description: '매주 한 번, 실습 위주로 진행해요.',
    instructor_info: '10년차 개발자예요.',
    prerequisite: '자바스크립트 기초',
    announcement: '첫 수업은 다음 주 월요일이에요.',
    banner_image_path: null,
    is_active: false,
    student_count: 3,
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
