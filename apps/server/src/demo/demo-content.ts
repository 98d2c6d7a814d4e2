/** Demo people: `kakaoId` lets anyone log in as them through the dev provider (`kakao_id=<id>`). */
export const DEMO_TEACHERS = [
  { kakaoId: '1001', nickname: '파도선생', email: 'wave@demo.sea' },
  { kakaoId: '1002', nickname: '등대지기', email: 'lighthouse@demo.sea' },
  { kakaoId: '1003', nickname: '산호쌤', email: null },
] as const;

export const DEMO_STUDENTS = ['갈매기', '돌고래', '해달', '불가사리', '고래상어', '소라게'].map(
  (nickname, i) => ({
    kakaoId: String(2001 + i),
    nickname,
    email: null,
  }),
);

export type DemoClass = {
  teacher: number;
  categoryId: number;
  name: string;
  object: string;
  description: string;
  announcement?: string;
  students: number;
  colors: [string, string];
};

/** Ten classes, oldest first; `students` is how many demo students enrol. */
export const DEMO_CLASSES: DemoClass[] = [
  {
    teacher: 0,
    categoryId: 13,
    name: '처음 만나는 타입스크립트',
    object: '타입으로 안전한 웹 앱을 만듭니다.',
    description: '변수와 함수부터 제네릭까지, 예제로 차근차근 익혀요.',
    students: 6,
    colors: ['#0b3d91', '#1fa2ff'],
  },
  {
    teacher: 1,
    categoryId: 1,
    name: '아이패드 드로잉 기초',
    object: '프로크리에이트로 첫 작품을 완성해요.',
    description: '브러시, 레이어, 색 고르기를 함께 연습합니다.',
    students: 4,
    announcement: '오늘 저녁 8시에 라이브로 만나요!',
    colors: ['#005f73', '#94d2bd'],
  },
  {
    teacher: 2,
    categoryId: 5,
    name: '주말 홈베이킹 클래스',
    object: '집에서 스콘과 마들렌을 굽습니다.',
    description: '오븐 없이도 가능한 레시피까지 알려 드려요.',
    students: 3,
    colors: ['#03045e', '#48cae4'],
  },
  {
    teacher: 0,
    categoryId: 14,
    name: '파이썬 데이터 분석 입문',
    object: '판다스로 데이터를 읽고 그려 봅니다.',
    description: '공공 데이터로 실습하며 분석의 흐름을 익혀요.',
    students: 5,
    colors: ['#023e8a', '#00b4d8'],
  },
  {
    teacher: 1,
    categoryId: 6,
    name: '통기타 코드 10개로 한 곡',
    object: '기본 코드로 노래 한 곡을 완주해요.',
    description: '손가락 위치부터 스트로크 리듬까지 천천히 배워요.',
    students: 2,
    colors: ['#0077b6', '#90e0ef'],
  },
  {
    teacher: 2,
    categoryId: 7,
    name: '아침 20분 스트레칭',
    object: '굳은 몸을 매일 가볍게 풀어요.',
    description: '출근 전 따라 하기 좋은 루틴을 함께 만듭니다.',
    students: 1,
    colors: ['#0a9396', '#e9d8a6'],
  },
  {
    teacher: 0,
    categoryId: 21,
    name: '여행 영어 회화',
    object: '공항과 호텔에서 자신 있게 말해요.',
    description: '상황별 표현을 역할극으로 연습합니다.',
    students: 3,
    colors: ['#1d3557', '#a8dadc'],
  },
  {
    teacher: 1,
    categoryId: 9,
    name: '스마트폰 사진 잘 찍는 법',
    object: '구도와 빛으로 사진이 달라져요.',
    description: '휴대폰 하나로 인생 사진을 남기는 요령을 배워요.',
    students: 0,
    colors: ['#264653', '#2a9d8f'],
  },
  {
    teacher: 2,
    categoryId: 10,
    name: '사회초년생 재테크',
    object: '월급 관리의 첫 단추를 끼웁니다.',
    description: '예산 짜기, 비상금, 적금과 투자의 기초를 다뤄요.',
    students: 2,
    colors: ['#003049', '#669bbc'],
  },
  {
    teacher: 0,
    categoryId: 17,
    name: '노션으로 하루 정리',
    object: '할 일과 기록을 한곳에 모아요.',
    description: '템플릿을 직접 만들며 나만의 정리법을 찾습니다.',
    students: 1,
    colors: ['#012a4a', '#61a5c2'],
  },
];
