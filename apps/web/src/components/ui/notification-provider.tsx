import { useCallback, useEffect, useMemo, useRef, useState } from 'react';
import type { ReactNode } from 'react';
import { NotificationContext } from './notification-context.ts';
import type { Notify, NotificationTone, NotifyOptions } from './notification-context.ts';
import { UI_TEXTS } from './texts.ts';
import styles from './notification-provider.module.css';

type Item = { id: number; message: string; tone: NotificationTone; action?: NotifyOptions['action'] };

const DEFAULT_DURATION_MS = 4000;
const ERROR_DURATION_MS = 6000;
const MAX_VISIBLE = 3;

/**
 * Holds the app's notifications above the routes, so a message shown just before a navigation (for
 * example 'sign-up complete' then go to /) stays visible on the next page. Errors are announced
 * assertively (role=alert), the rest politely (role=status). A message already shown is not stacked again:
 * its notice stays and its time starts over. A success dismisses the errors shown before it. A notice may
 * offer one way on (`action`) and may stay until dismissed (`durationMs: Infinity`).
 */
export function NotificationProvider({ children }: { children: ReactNode }) {
  const [items, setItems] = useState<Item[]>([]);
  // The notices as last set, read synchronously by notify (two calls in one event see each other).
  const itemsRef = useRef<Item[]>([]);
  const nextId = useRef(1);
  const timers = useRef(new Map<number, ReturnType<typeof setTimeout>>());

  const dismiss = useCallback((id: number) => {
    itemsRef.current = itemsRef.current.filter((item) => item.id !== id);
    setItems(itemsRef.current);
    const timer = timers.current.get(id);
    if (timer !== undefined) clearTimeout(timer);
    timers.current.delete(id);
  }, []);

  const notify = useCallback<Notify>(
    (message, options = {}) => {
      const tone = options.tone ?? 'info';
      const duration = options.durationMs ?? (tone === 'error' ? ERROR_DURATION_MS : DEFAULT_DURATION_MS);
      // The same message again (a file rejected twice, a retried request) is one notice whose time starts over.
      const shown = itemsRef.current.find((item) => item.message === message && item.tone === tone);
      const id = shown?.id ?? nextId.current++;
      // A success settles what failed before it (a sign-up error, then the sign-up done): the errors go, so
      // they do not follow the user to the next page.
      if (tone === 'success') {
        for (const item of itemsRef.current) if (item.tone === 'error') dismiss(item.id);
      }
      if (shown === undefined) {
        const item: Item = { id, message, tone, ...(options.action ? { action: options.action } : {}) };
        itemsRef.current = [...itemsRef.current, item].slice(-MAX_VISIBLE);
        setItems(itemsRef.current);
      }
      const previous = timers.current.get(id);
      if (previous !== undefined) clearTimeout(previous);
      timers.current.delete(id);
      if (Number.isFinite(duration)) {
        timers.current.set(
          id,
          setTimeout(() => dismiss(id), duration),
        );
      }
    },
    [dismiss],
  );

  useEffect(() => {
    const pending = timers.current;
    return () => {
      for (const timer of pending.values()) clearTimeout(timer);
      pending.clear();
    };
  }, []);

  const value = useMemo(() => notify, [notify]);

  return (
    <NotificationContext.Provider value={value}>
      {children}
      <section className={styles.region} aria-label={UI_TEXTS.notificationsRegion}>
        {items.map((item) => (
          <div
            key={item.id}
            className={`${styles.item} ${styles[item.tone]}`}
            role={item.tone === 'error' ? 'alert' : 'status'}
          >
            <p className={styles.message}>{item.message}</p>
            {item.action && (
              <button
                type="button"
                className={styles.action}
                onClick={() => {
                  dismiss(item.id);
                  item.action?.run();
                }}
              >
                {item.action.label}
              </button>
            )}
            <button
              type="button"
              className={styles.close}
              aria-label={UI_TEXTS.dismissNotification}
              onClick={() => dismiss(item.id)}
            >
              ×
            </button>
          </div>
        ))}
      </section>
    </NotificationContext.Provider>
  );
}
