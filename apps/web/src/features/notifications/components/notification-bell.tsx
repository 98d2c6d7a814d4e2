import * as DropdownMenu from '@radix-ui/react-dropdown-menu';
import { useCallback } from 'react';
import { useNavigate } from 'react-router';
import type { NotificationItem } from '@sea/contract/notifications';
import { BellIcon } from '../../../components/ui/icons.tsx';
import { useNotify } from '../../../components/ui/use-notify.ts';
import { paths } from '../../../config/paths.ts';
import { useMarkRead, useNotifications } from '../api/notification-api.ts';
import { NOTIFICATION_TEXTS as texts } from '../texts.ts';
import { useNotificationStream } from '../use-notification-stream.ts';
import styles from './notification-bell.module.css';

const TIME = new Intl.DateTimeFormat('ko-KR', {
  month: 'long',
  day: 'numeric',
  hour: 'numeric',
  minute: '2-digit',
  timeZone: 'Asia/Seoul',
});

/** Where a notice leads: a live class's room, the class's dashboard, its page, or its students. */
export function noticeTarget(item: NotificationItem): string {
  switch (item.kind) {
    case 'class_live':
      return paths.liveStudent.to(item.class_id);
    case 'announcement':
    case 'replay_ready':
      return paths.dashboardStudent.to(item.class_id);
    case 'review_reply':
      return paths.lectureInfo.to(item.class_id);
    case 'enrolment':
      return paths.lectureStudents.to(item.class_id);
  }
}

/**
 * The header's bell: the unread count, and a menu of the newest notices (a live class's notice enters its
 * room). New notices arrive live and show a toast too; a go-live toast offers '입장하기' and stays until closed.
 */
export function NotificationBell() {
  const navigate = useNavigate();
  const notify = useNotify();
  const list = useNotifications();
  const markRead = useMarkRead();
  // Stable across renders (unlike the mutation's result), so the stream is not reopened on every render.
  const markAsRead = markRead.mutate;
  const onNotice = useCallback(
    (item: NotificationItem) => {
      if (item.kind !== 'class_live') return notify(texts.text(item));
      // A go-live notice is a door: it stays until it is taken or closed.
      notify(texts.text(item), {
        durationMs: Infinity,
        action: {
          label: texts.enter,
          run: () => {
            markAsRead([item.id]);
            navigate(noticeTarget(item));
          },
        },
      });
    },
    [notify, markAsRead, navigate],
  );
  useNotificationStream(onNotice);
  const unread = list.data?.unread_count ?? 0;
  const items = list.data?.items ?? [];

  function open(item: NotificationItem) {
    if (!item.read) markRead.mutate([item.id]);
    navigate(noticeTarget(item));
  }

  return (
    <DropdownMenu.Root>
      {/* Named by its content, not aria-label: the visible count must be part of the name (WCAG 2.5.3). */}
      <DropdownMenu.Trigger className={styles.trigger}>
        <BellIcon />
        <span className="visually-hidden">{texts.bell(unread)}</span>
        {unread > 0 && (
          <span className={styles.badge} aria-hidden="true">
            {unread > 99 ? '99+' : unread}
          </span>
        )}
      </DropdownMenu.Trigger>
      <DropdownMenu.Portal>
        <DropdownMenu.Content className={styles.menu} align="end" sideOffset={6} aria-label={texts.title}>
          <div className={styles.head}>
            <DropdownMenu.Label className={styles.title}>{texts.title}</DropdownMenu.Label>
            {unread > 0 && (
              <DropdownMenu.Item
                className={styles.readAll}
                onSelect={(event) => {
                  event.preventDefault();
                  markRead.mutate(undefined);
                }}
              >
                {texts.readAll}
              </DropdownMenu.Item>
            )}
          </div>
          {list.isError && <p className={styles.empty}>{texts.loadFailed}</p>}
          {items.length === 0 && !list.isError && <p className={styles.empty}>{texts.empty}</p>}
          {items.map((item) => (
            <DropdownMenu.Item
              key={item.id}
              className={item.read ? styles.item : `${styles.item} ${styles.unread}`}
              onSelect={() => open(item)}
            >
              <span className={styles.text}>{texts.text(item)}</span>
              <span className={styles.meta}>
                <time dateTime={item.created_at}>{TIME.format(new Date(item.created_at))}</time>
                {item.kind === 'class_live' && <span className={styles.enter}>{texts.enter}</span>}
              </span>
            </DropdownMenu.Item>
          ))}
        </DropdownMenu.Content>
      </DropdownMenu.Portal>
    </DropdownMenu.Root>
  );
}
