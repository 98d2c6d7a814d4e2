/** Korean texts of the instructor page. */
export const INSTRUCTOR_TEXTS = {
  loading: '강사 정보를 불러오는 중이에요...',
  loadFailed: '강사 정보를 찾지 못했어요.',
  heading: (nickname: string) => `${nickname} 강사`,
  introduction: '강사 소개',
  noIntroduction: '아직 등록된 소개가 없어요.',
  stats: '강사 활동',
  students: '총 수강생',
  studentsValue: (count: number) => `${count.toLocaleString('ko-KR')}명`,
  rating: '평균 별점',
  ratingValue: (average: number | null, count: number) =>
    average === null ? '아직 없어요' : `${average.toFixed(1)}점 (수강평 ${count}개)`,
  classCount: '개설한 강의',
  classCountValue: (count: number) => `${count}개`,
  classes: '개설한 강의',
  noClasses: '아직 개설한 강의가 없어요.',
} as const;
