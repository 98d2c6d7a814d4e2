/** Korean texts of the chat panel. */
export const CHAT_TEXTS = {
  title: '채팅',
  listLabel: '채팅 메시지',
  anonymous: '익명',
  mine: '내 메시지',
  empty: '아직 메시지가 없어요. 먼저 인사를 건네 보세요!',
  inputLabel: '보낼 메시지',
  placeholder: '메시지를 입력하세요 (Shift+Enter로 줄바꿈)',
  placeholderTouch: '메시지를 입력하세요',
  placeholderOffline: '채팅 서버에 연결되면 보낼 수 있어요',
  send: '보내기',
  teacherBadge: '강사',
  /** The counter's spoken name, and what the box says once the limit is reached. */
  characterCount: (length: number, max: number) =>
    `${max.toLocaleString('ko-KR')}자 중 ${length.toLocaleString('ko-KR')}자`,
  limitReached: (max: number) => `메시지는 ${max.toLocaleString('ko-KR')}자까지 보낼 수 있어요.`,
  newMessages: '새 메시지 보기',
  closedState: '꺼짐',
  closedBody: '강의가 시작되면 채팅이 열려요.',
  /** The teacher's actions on a message. */
  deleteMessage: '메시지 삭제',
  mute: '채팅 금지',
} as const;
