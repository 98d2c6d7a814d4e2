import { useEffect, useRef, useState } from 'react';

/**
 * Counts down from `seconds` to 0, one step a second, and calls `onDone` once at 0. With `enabled` false
 * the count stays put (a page without a class id has nowhere to go).
 */
export function useCountdown(seconds: number, onDone: () => void, enabled = true): number {
  const [left, setLeft] = useState(seconds);
  const done = useRef(onDone);
  const fired = useRef(false);
  useEffect(() => {
    done.current = onDone;
  }, [onDone]);

  useEffect(() => {
    if (!enabled) return undefined;
    if (left <= 0) {
      if (!fired.current) {
        fired.current = true;
        done.current();
      }
      return undefined;
    }
    const timer = setTimeout(() => setLeft((value) => value - 1), 1000);
    return () => clearTimeout(timer);
  }, [left, enabled]);

  return left;
}
