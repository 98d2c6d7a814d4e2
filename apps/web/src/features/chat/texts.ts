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
  newMessages: '새 메시지 보기',
  closedState: '꺼짐',
  closedBody: '강의가 시작되면 채팅이 열려요.',
  states: {
    connecting: '연결 중',
    connected: '연결됨',
    disconnected: '연결 끊김',
    failed: '연결 실패',
  } satisfies Record<ChatConnectionState, string>,
} as const;
