import { useEffect, useState } from 'react';
import {
  REACTION_DESTINATION,
  reactionTopic,
  type Reaction,
  type ReactionCounts,
} from '@sea/contract/classroom';
import type { RoomConnection } from '../../lib/realtime/room-connection.ts';

/** One emoji floating up for a moment. */
export type Burst = { key: number; emoji: Reaction };

export type ReactionsView = {
  /** The emoji of the last moments, each shown briefly. */
  bursts: readonly Burst[];
  /** Everything received since the page opened, by emoji (the teacher's counts). */
  totals: Partial<Record<Reaction, number>>;
  send: (emoji: Reaction) => void;
};

/** How long a burst is shown, and how many of one update at most (a light burst, not a flood). */
const BURST_MS = 1_500;
const MAX_BURST_PER_UPDATE = 8;
let burstKey = 0;

/** The room's reactions: the aggregated updates as bursts and totals, and sending one. */
export function useReactions(connection: RoomConnection | null, classId: number): ReactionsView {
  const [bursts, setBursts] = useState<readonly Burst[]>([]);
  const [totals, setTotals] = useState<ReactionsView['totals']>({});
  useEffect(() => {
    if (!connection) return undefined;
    const timers = new Set<ReturnType<typeof setTimeout>>();
    const stop = connection.watch(reactionTopic(classId), (body) => {
      const { counts } = body as ReactionCounts;
      const entries = Object.entries(counts) as Array<[Reaction, number]>;
      setTotals((current) => {
        const next = { ...current };
        for (const [emoji, count] of entries) next[emoji] = (next[emoji] ?? 0) + count;
        return next;
      });
      const added: Burst[] = [];
      for (const [emoji, count] of entries) {
        for (let i = 0; i < Math.min(count, MAX_BURST_PER_UPDATE); i += 1)
          added.push({ key: ++burstKey, emoji });
      }
      setBursts((current) => [...current, ...added]);
      const timer = setTimeout(() => {
        timers.delete(timer);
        setBursts((current) => current.filter((burst) => !added.includes(burst)));
      }, BURST_MS);
      timers.add(timer);
    });
    return () => {
      stop();
      for (const timer of timers) clearTimeout(timer);
    };
  }, [connection, classId]);
  return { bursts, totals, send: (emoji) => void connection?.publish(REACTION_DESTINATION, { emoji }) };
}
