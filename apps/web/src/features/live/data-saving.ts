import type { PreferredLayer } from '@sea/contract/live';

/** The webcam layer of '데이터 절약 모드': the smallest. */
export const DATA_SAVING_LAYER = 'q' satisfies PreferredLayer;

/** Where the student's choice of '데이터 절약 모드' is kept (this browser only: a weak network is a device's). */
const STORAGE_KEY = 'sea.live.data-saving';

/** Whether this device chose '데이터 절약 모드'; off when storage is unavailable or holds something else. */
export function readDataSaving(): boolean {
  try {
    return localStorage.getItem(STORAGE_KEY) === 'on';
  } catch {
    // Storage refused (private mode): the room starts in the normal mode.
    return false;
  }
}

/** Remembers the choice for the next room on this device. */
export function storeDataSaving(on: boolean): void {
  try {
    if (on) localStorage.setItem(STORAGE_KEY, 'on');
    else localStorage.removeItem(STORAGE_KEY);
  } catch {
    // Storage refused: the mode still applies in this room; only the memory of it is lost.
  }
}
