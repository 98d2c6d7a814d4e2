import { useSyncExternalStore } from 'react';

/** True while the CSS media query matches; follows window resizes. */
export function useMediaQuery(query: string): boolean {
  return useSyncExternalStore(
    (onChange) => {
      const list = window.matchMedia(query);
      list.addEventListener('change', onChange);
      return () => list.removeEventListener('change', onChange);
    },
    () => window.matchMedia(query).matches,
    () => false,
  );
}

/** The spec's breakpoint: the desktop layout above 1184 px of window width, the mobile one at or below. */
export const DESKTOP_QUERY = '(min-width: 1185px)';

/** True on the desktop layout (window wider than 1184 px). */
export function useDesktop(): boolean {
  return useMediaQuery(DESKTOP_QUERY);
}

/** A device whose main pointer is a finger: no hover, a coarse pointer (phones, tablets). */
export const TOUCH_QUERY = '(hover: none) and (pointer: coarse)';

/** True on a touch screen, where keyboard shortcuts such as Shift+Enter mean little. */
export function useTouchScreen(): boolean {
  return useMediaQuery(TOUCH_QUERY);
}
