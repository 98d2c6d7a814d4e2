import { useCallback, useLayoutEffect, useRef, useState, type RefObject } from 'react';

/** Within this many pixels of the end, a reader counts as "at the bottom". */
const BOTTOM_SLACK_PX = 48;

/**
 * Keeps a scrolling list at its end while the reader is there, and leaves a reader who scrolled up alone
 * (reporting `unseen` instead, so the panel can offer a jump to the newest message).
 */
export function useStickToBottom(listRef: RefObject<HTMLElement | null>, lastKey: unknown) {
  const atBottom = useRef(true);
  const [unseen, setUnseen] = useState(false);

  const onScroll = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    atBottom.current = list.scrollHeight - list.scrollTop - list.clientHeight <= BOTTOM_SLACK_PX;
    if (atBottom.current) setUnseen(false);
  }, [listRef]);

  const scrollToBottom = useCallback(() => {
    const list = listRef.current;
    if (!list) return;
    list.scrollTop = list.scrollHeight;
    atBottom.current = true;
    setUnseen(false);
  }, [listRef]);

  useLayoutEffect(() => {
    if (lastKey === undefined) return;
    if (atBottom.current) scrollToBottom();
    else setUnseen(true);
  }, [lastKey, scrollToBottom]);

  return { onScroll, scrollToBottom, unseen };
}
