import { useContext } from 'react';
import { NotificationContext } from './notification-context.ts';
import type { Notify } from './notification-context.ts';

/** The notify function of the nearest NotificationProvider. */
export function useNotify(): Notify {
  const notify = useContext(NotificationContext);
  if (notify === null) throw new Error('useNotify needs a NotificationProvider above it');
  return notify;
}
