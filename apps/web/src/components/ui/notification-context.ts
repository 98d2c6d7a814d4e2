import { createContext } from 'react';

export type NotificationTone = 'info' | 'success' | 'error';

export type NotifyOptions = {
  tone?: NotificationTone;
  /** How long it stays; errors stay a little longer by default. `Infinity`: until dismissed. */
  durationMs?: number;
  /** A way on from the notice (a go-live notice's '입장하기'); taking it dismisses the notice. */
  action?: { label: string; run: () => void };
};

/** Shows an in-app notification (the app's replacement for `window.alert`). */
export type Notify = (message: string, options?: NotifyOptions) => void;

export const NotificationContext = createContext<Notify | null>(null);
