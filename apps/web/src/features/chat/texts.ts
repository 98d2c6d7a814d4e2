import type { ChatConnectionState } from './chat-connection.ts';

/** Korean texts of the chat panel. */
export const CHAT_TEXTS = {
  title: '채팅',
  listLabel: '채팅 메시지',
  anonymous: '익명',
  mine: '내 메시지',
  empty: '아직 메시지가 없어요. 먼저 인사를 건네 보세요!',
  inputLabel: '보낼 메시지',
  placeholder: '메시지를 입력하세요 (Shift+Enter로 줄바꿈)',
  placeholderOffline: '채팅 서버에 연결되면 보낼 수 있어요',
  send: '보내기',
  teacherBadge: '강사',
  /** The counter's spoken name, and what the box says once the limit is reached. */
  characterCount: (length: number, max: number) =>
    `${max.toLocaleString('ko-KR')}자 중 ${length.toLocaleString('ko-KR')}자`,
  limitReached: (max: number) => `메시지는 ${max.toLocaleString('ko-KR')}자까지 보낼 수 있어요.`,
  newMessages: '새 메시지 보기',
  states: {
    connecting: '연결 중',
    connected: '연결됨',
    disconnected: '연결 끊김',
    failed: '연결 실패',
  } satisfies Record<ChatConnectionState, string>,
} as const;

/** Korean texts of the classroom parts of the side panel: tabs, questions, hands and moderation. */
export const CLASSROOM_TEXTS = {
  tabsLabel: '채팅과 질문',
  chatTab: '채팅',
  questionsTab: (count: number) => (count > 0 ? `질문 ${count}` : '질문'),
  questionsLabel: '질문 목록',
  questionsEmpty: '아직 질문이 없어요. 궁금한 점을 남겨 보세요!',
  questionInput: '질문 내용',
  questionPlaceholder: '강사님께 질문을 남겨 보세요',
  anonymous: '다른 수강생에게 이름 숨기기',
  ask: '질문하기',
  anonymousAuthor: '익명',
  anonymousToOthers: '(다른 수강생에게는 익명)',
  mine: '내 질문',
  votes: (count: number) => `추천 ${count}`,
  vote: '추천하기',
  voted: '추천함',
  answered: '답변 완료',
  markAnswered: '답변 완료로 표시',
  unmarkAnswered: '답변 완료 취소',
  pinned: '고정됨',
  pin: '고정',
  unpin: '고정 해제',
  deleteQuestion: '질문 삭제',
  deleteMessage: '메시지 삭제',
  mute: (minutes: number) => `${minutes}분 채팅 금지`,
  slowMode: '천천히 모드',
  slowModeOff: '끄기',
  slowModeSeconds: (seconds: number) => `${seconds}초`,
  slowModeOn: (seconds: number) => `천천히 모드: ${seconds}초에 한 번씩 보낼 수 있어요.`,
  raiseHand: '손들기',
  lowerHand: '손 내리기',
  handsCount: (count: number) => `손든 학생 ${count}명`,
  handsQueue: '손든 순서',
  lowerOne: '내리기',
  lowerAll: '모두 내리기',
} as const;
