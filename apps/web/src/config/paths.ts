import { PAGES, toPath } from '@sea/contract/paths';

/**
 * Web routes of the app: the patterns (for the router) and builders (for links). Patterns come from the
 * contract's PAGES; the two id-less variants of the spec's table are added here.
 */
export const paths = {
  home: { pattern: PAGES.home, to: () => PAGES.home },
  login: { pattern: PAGES.login, to: () => PAGES.login },
  kakaoCallback: { pattern: PAGES.kakaoCallback, to: () => PAGES.kakaoCallback },
  signInfo: { pattern: PAGES.signInfo, to: () => PAGES.signInfo },
  list: { pattern: PAGES.list, to: () => PAGES.list },
  liveList: { pattern: PAGES.liveList, to: () => PAGES.liveList },
  enrollmentBare: { pattern: '/enrollment', to: () => '/enrollment' },
  enrollment: { pattern: PAGES.enrollment, to: (classId: number) => toPath(PAGES.enrollment, { classId }) },
  lectureInfo: {
    pattern: PAGES.lectureInfo,
    to: (classId: number) => toPath(PAGES.lectureInfo, { classId }),
  },
  liveStudent: {
    pattern: PAGES.liveStudent,
    to: (classId: number) => toPath(PAGES.liveStudent, { classId }),
  },
  liveTeacher: {
    pattern: PAGES.liveTeacher,
    /** `record: false`: the teacher chose not to record this lecture (read by the room as `?record=off`). */
    to: (classId: number, options: { record?: boolean } = {}) =>
      toPath(PAGES.liveTeacher, { classId }) + (options.record === false ? '?record=off' : ''),
  },
  classroom: { pattern: PAGES.classroom, to: () => PAGES.classroom },
  dashboardStudent: {
    pattern: PAGES.dashboardStudent,
    to: (classId: number) => toPath(PAGES.dashboardStudent, { classId }),
  },
  dashboardTeacher: {
    pattern: PAGES.dashboardTeacher,
    to: (classId: number) => toPath(PAGES.dashboardTeacher, { classId }),
  },
  dashboardEdit: {
    pattern: PAGES.dashboardEdit,
    to: (classId: number) => toPath(PAGES.dashboardEdit, { classId }),
  },
  replayStudent: {
    pattern: PAGES.replayStudent,
    to: (classId: number, sessionId: number) => toPath(PAGES.replayStudent, { classId, sessionId }),
  },
  replayTeacher: {
    pattern: PAGES.replayTeacher,
    to: (classId: number, sessionId: number) => toPath(PAGES.replayTeacher, { classId, sessionId }),
  },
  lectureCreatedBare: { pattern: '/lecture/created', to: () => '/lecture/created' },
  lectureCreated: {
    pattern: PAGES.lectureCreated,
    to: (classId: number) => toPath(PAGES.lectureCreated, { classId }),
  },
  lectureOpen: { pattern: PAGES.lectureOpen, to: () => PAGES.lectureOpen },
  lectureStudents: {
    pattern: PAGES.lectureStudents,
    to: (classId: number) => toPath(PAGES.lectureStudents, { classId }),
  },
  mypage: { pattern: PAGES.mypage, to: () => PAGES.mypage },
  editInfo: { pattern: PAGES.editInfo, to: () => PAGES.editInfo },
  instructor: {
    pattern: PAGES.instructor,
    to: (userId: string) => toPath(PAGES.instructor, { userId }),
  },
} as const;

/** Paths whose page has a dark navy background (product-spec section 2). */
export function isDarkPath(pathname: string): boolean {
  return (
    pathname === PAGES.home ||
    pathname === PAGES.list ||
    pathname === PAGES.liveList ||
    pathname.startsWith('/live/')
  );
}

/** Live-room paths: their header shows an exit button with a confirmation. */
export function isLivePath(pathname: string): boolean {
  return pathname.startsWith('/live/student/') || pathname.startsWith('/live/teacher/');
}

/** Paths whose header shows a back button (product-spec section 2, Header). */
export function isBackPath(pathname: string): boolean {
  return (
    pathname === PAGES.mypage ||
    pathname === PAGES.lectureOpen ||
    pathname.startsWith('/lecture/info/') ||
    pathname.startsWith('/instructor/') ||
    pathname.startsWith('/dashboard/') ||
    pathname.startsWith('/lecture/students/')
  );
}

/** Paths where the header has no right-hand button. */
export function isAuthFlowPath(pathname: string): boolean {
  return pathname === PAGES.login || pathname === PAGES.signInfo || pathname === PAGES.kakaoCallback;
}
