import type { Outage } from '../hooks/use-outage.ts';
import { LIVE_TEXTS } from '../texts.ts';
import styles from './live.module.css';

/**
 * Over the stage while the room is cut off from the media service and reconnecting: says so, with the
 * seconds counting, so nobody takes a frozen picture for a live one. Nothing otherwise.
 */
export function ConnectionBanner({ outage }: { outage: Outage | null }) {
  if (!outage?.reconnecting) return null;
  return (
    <div role="alert" className={styles.outage} data-outage-seconds={outage.seconds}>
      {LIVE_TEXTS.outage(outage.seconds)}
    </div>
  );
}
