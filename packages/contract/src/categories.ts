import { z } from 'zod';

/** The 25 categories, seeded in this order (their ids are 1..25 in this order). */
export const CATEGORY_NAMES = [
  '디지털 드로잉',
  '드로잉',
  '공예',
  '요리·음료',
  '베이킹·디저트',
  '음악',
  '운동',
  '라이프스타일',
  '사진·영상',
  '금융·재테크',
  '창업·부업',
  '성공 마인드',
  '프로그래밍',
  '데이터사이언스',
  '제품 기획',
  '비즈니스',
  '생산성',
  '마케팅',
  '디자인',
  '영상/3D',
  '영어',
  '외국어 시험',
  '제2 외국어',
  '아이 교육',
  '부모 교육',
] as const;

export const CategorySchema = z.object({ id: z.number().int(), name: z.string() });
export type Category = z.infer<typeof CategorySchema>;
