import type { NotificationItem } from '@sea/contract/notifications';

/** Korean texts of the notices (알림). */
export const NOTIFICATION_TEXTS = {
  bell: (unread: number) => (unread > 0 ? `알림 ${unread}개 읽지 않음` : '알림'),
  title: '알림',
  empty: '아직 알림이 없어요.',
  readAll: '모두 읽음',
  enter: '입장하기',
  loadFailed: '알림을 불러오지 못했어요.',
  text: (item: NotificationItem): string => {
    switch (item.kind) {
      case 'class_live':
        return `‘${item.class_name}’ 강의가 라이브를 시작했어요.`;
      case 'announcement':
        return `‘${item.class_name}’ 강의에 새 공지사항이 올라왔어요.`;
      case 'review_reply':
        return `‘${item.class_name}’ 강사님이 내 수강평에 답글을 달았어요.`;
      case 'enrolment':
        return `${item.nickname ?? '새 수강생'}님이 ‘${item.class_name}’ 강의를 수강 신청했어요.`;
      case 'replay_ready':
        return `‘${item.class_name}’ 강의의 다시보기가 준비됐어요.`;
    }
  },
} as const;
