/**
 * Every HTTP path of the API server, written once. Patterns use Fastify's `:param` syntax; clients fill them
 * with {@link toPath}.
 */
export const ROUTES = {
  health: '/health',
  /** Whether the service can serve now: what it depends on answers (`GET`, 200 or 503 with each check). */
  ready: '/ready',
  /** Prometheus metrics, for loopback and METRICS_ALLOW only (404 to anyone else). */
  metrics: '/metrics',
  docs: '/api/docs',

  appKey: '/api/auth/kakao/app-key',
  kakaoCallback: '/api/auth/kakao/callback',
  refresh: '/api/auth/refresh',
  signup: '/api/auth/signup',
  devAuthorize: '/api/auth/dev/authorize',

  users: '/api/users',
  checkNickname: '/api/users/checkNickname',
  /** The caller's classes that are live now (as teacher or student), for the LIVE cards' way in. */
  myLiveClasses: '/api/users/live-classes',
  /** The caller's private calendar feed URL (made on first request), and a new one in its place. */
  calendarUrl: '/api/users/calendar-url',
  calendarUrlReset: '/api/users/calendar-url/reset',
  /** A user's calendar feed (iCalendar); no bearer: the token in the path is the secret. */
  calendarFeed: '/api/calendar/:token.ics',

  categories: '/api/categories',
  classes: '/api/classes',
  class: '/api/classes/:classId',
  classDelete: '/api/classes/:classId/delete',
  classRole: '/api/classes/:classId/role',
  classActive: '/api/classes/:classId/isActive',
  liveTicket: '/api/classes/:classId/live-ticket',
  dashboard: '/api/classes/:classId/dashboard',
  dashboardStudents: '/api/classes/:classId/dashboard/students',
  enroll: '/api/classes/:classId/enroll',
  schedule: '/api/classes/:classId/schedule',
  /** One class's schedule as an iCalendar file (members), for '캘린더에 추가'. */
  scheduleIcs: '/api/classes/:classId/schedule.ics',
  /** The next entries of a class's schedule that have not ended, for anyone (the class page). */
  upcomingSchedule: '/api/classes/:classId/schedule/upcoming',
  reviews: '/api/classes/:classId/reviews',
  reviewSummary: '/api/classes/:classId/reviews/summary',
  review: '/api/classes/:classId/reviews/:reviewId',
  reviewReply: '/api/classes/:classId/reviews/:reviewId/reply',
  instructor: '/api/instructors/:userId',
  /** What the search box suggests as the user types: a few classes and instructors. */
  searchSuggest: '/api/search/suggest',
  notifications: '/api/notifications',
  notificationsRead: '/api/notifications/read',
  notificationStream: '/api/notifications/stream',
  sessions: '/api/classes/:classId/sessions',
  session: '/api/classes/:classId/sessions/:sessionId',
  sessionChat: '/api/classes/:classId/sessions/:sessionId/chat',
  /** A session's questions and polls with their moments in the replay, for the replay's chat pane. */
  sessionClassroom: '/api/classes/:classId/sessions/:sessionId/classroom',
  sessionWatch: '/api/classes/:classId/sessions/:sessionId/watch',
  /** The teacher's '다시 만들기': make a failed (or waiting) replay again from its raw recording. */
  sessionRemake: '/api/classes/:classId/sessions/:sessionId/remake',
  attendance: '/api/classes/:classId/attendance',
  /** Replay progress (진도율): a student's own, or every student's for the teacher (`?format=csv`). */
  progress: '/api/classes/:classId/progress',
  /** A replay's files, reached only with the signed `?exp=&sig=` of the session item's URLs. */
  replayMp4: '/api/replays/:sessionId/replay.mp4',
  replayPlaylist: '/api/replays/:sessionId/hls/index.m3u8',
  replaySegment: '/api/replays/:sessionId/hls/:segment',
  /** The questions of the class's live session (the open one, or `?session=`), for its members. */
  classQuestions: '/api/classes/:classId/questions',
  /** The room's raised hands as the reader sees them (`HandsView` of classroom.ts), for its members. */
  classHands: '/api/classes/:classId/hands',
  /** The polls of the class's live session (the open one, or `?session=`), for its members. */
  classPolls: '/api/classes/:classId/polls',
  /** A class's materials (materials.ts): the teacher uploads (multipart) and changes them, members read. */
  materials: '/api/classes/:classId/materials',
  material: '/api/classes/:classId/materials/:materialId',
  /** The pages of a material whose text holds the words of `?q=` (members). */
  materialSearch: '/api/classes/:classId/materials/:materialId/search',
  /** A material's files (page images, the PDF), reached only with the signed `?exp=&sig=` of its URLs. */
  materialFile: '/api/materials/:materialId/files/:file',
  /** The board of the class's current or last session (board.ts), for late joiners. */
  classBoard: '/api/classes/:classId/board',
  /** A session's board with `offset_ms` (the replay), and its chapters (`PATCH`: the teacher renames). */
  sessionBoard: '/api/classes/:classId/sessions/:sessionId/board',
  sessionChapters: '/api/classes/:classId/sessions/:sessionId/chapters',
  /** One chapter of a session (chapters.ts): the teacher renames, moves (a mark) or removes it. */
  sessionChapter: '/api/classes/:classId/sessions/:sessionId/chapters/:chapterId',
  /** The caller's own notes on a session (notes.ts), and one of them. */
  sessionNotes: '/api/classes/:classId/sessions/:sessionId/notes',
  sessionNote: '/api/classes/:classId/sessions/:sessionId/notes/:noteId',
  /** Every note of the caller in a class, as a Markdown file (`?format=md`). */
  classNotes: '/api/classes/:classId/notes',

  chatHistory: '/find/chat/list/:classId',
  /**
   * Media node → API server: the node's rooms (`MediaNodeReport` of media-nodes.ts, answered with a
   * `MediaRevocation`), bearer token signed with MEDIA_SECRET for the audience MEDIA_CALLBACK_AUDIENCE.
   */
  mediaNodeReport: '/internal/media-nodes/:nodeId',

  /** Where uploaded images are served from. */
  uploads: '/uploads',
} as const;

/** Web routes of the single-page app (product-spec section 2). */
export const PAGES = {
  home: '/',
  login: '/login',
  kakaoCallback: '/oauth/kakao/callback',
  signInfo: '/sign-info',
  list: '/list',
  liveList: '/live-list',
  enrollment: '/enrollment/:classId',
  lectureInfo: '/lecture/info/:classId',
  liveStudent: '/live/student/:classId',
  liveTeacher: '/live/teacher/:classId',
  classroom: '/classroom',
  dashboardStudent: '/dashboard/student/:classId',
  dashboardTeacher: '/dashboard/teacher/:classId',
  dashboardEdit: '/dashboard/edit/:classId',
  /** One replay of the class, reached from the student's or the teacher's dashboard. */
  replayStudent: '/dashboard/student/:classId/replays/:sessionId',
  replayTeacher: '/dashboard/teacher/:classId/replays/:sessionId',
  lectureCreated: '/lecture/created/:classId',
  lectureOpen: '/lecture/open',
  lectureStudents: '/lecture/students/:classId',
  mypage: '/mypage',
  editInfo: '/edit-info',
  instructor: '/instructor/:userId',
} as const;

/** Fills the `:name` parameters of a route pattern: `toPath(ROUTES.class, { classId: 3 })`. */
export function toPath(pattern: string, params: Record<string, string | number>): string {
  return pattern.replace(/:([A-Za-z]+)/g, (_, name: string) => {
    const value = params[name];
    if (value === undefined) throw new Error(`Missing path parameter ${name} for ${pattern}`);
    return encodeURIComponent(String(value));
  });
}
