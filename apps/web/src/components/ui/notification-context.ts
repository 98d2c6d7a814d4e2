import { createContext } from 'react';

export type NotificationTone = 'info' | 'success' | 'error';

export type NotifyOptions = {
  tone?: NotificationTone;
  /** How long it stays; errors stay a little longer by default. */
  durationMs?: number;
};

/** Shows an in-app notification (the app's replacement for `window.alert`). */
export type Notify = (message: string, options?: NotifyOptions) => void;

export const NotificationContext = createContext<Notify | null>(null);
