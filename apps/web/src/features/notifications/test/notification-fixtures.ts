import type { NotificationItem } from '@sea/contract/notifications';

/** An unread 'class is live' notice of class 7 ('바다 수채화'), changed by `overrides`. */
export const notice = (id: number, overrides: Partial<NotificationItem> = {}): NotificationItem => ({
  id,
  kind: 'class_live',
  class_id: 7,
  class_name: '바다 수채화',
  nickname: null,
  read: false,
  created_at: '2026-11-25T10:00:00.000Z',
  ...overrides,
});
