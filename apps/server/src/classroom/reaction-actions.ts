import {
  REACTION_DESTINATION,
  REACTION_TOPIC_PREFIX,
  ReactionCountsSchema,
  ReactionSendSchema,
  reactionTopic,
  type ReactionCounts,
} from '@sea/contract/classroom';
import type { RoomLog } from '../room-bus/room-ports.ts';
import type { RoomBroker } from '../room-bus/room-broker.ts';
import { refuse } from '../room-bus/refusals.ts';
import { eventId, OK, roomAction } from '../room-bus/room-action.ts';
import { TokenBuckets } from '../room-bus/token-buckets.ts';
import { ReactionAggregator } from './reaction-aggregator.ts';

export interface ReactionsOptions {
  broker: Pick<RoomBroker, 'publishEvent' | 'intercept' | 'deliverLocally'>;
  log: RoomLog;
  /** Updates per second per room (the contract's 4). */
  perSecond?: number;
}

/**
 * Reactions (`/app/reactions`, one action): never stored, summed twice. This instance sums what its senders send and hands
 * the sums to every instance at most 4 times a second per room (through the fan-out, as room events on
 * `/topic/reactions/{classId}`, which the broker hands here instead of to subscribers); each instance sums what
 * arrives from all of them and sends its subscribers at most 4 updates a second per room.
 */
export function reactions(options: ReactionsOptions) {
  const { broker } = options;
  const event = (roomId: number, counts: ReactionCounts['counts']) => ({
    destination: reactionTopic(roomId),
    id: eventId('reactions'),
    body: { roomId, counts } satisfies ReactionCounts,
    throttled: true as const,
  });
  const toSubscribers = new ReactionAggregator({
    perSecond: options.perSecond,
    flush: (roomId, counts) => broker.deliverLocally(event(roomId, counts)),
  });
  const toInstances = new ReactionAggregator({
    perSecond: options.perSecond,
    flush: (roomId, counts) => broker.publishEvent(event(roomId, counts)),
  });
  broker.intercept(REACTION_TOPIC_PREFIX, (arrived) => {
    const parsed = ReactionCountsSchema.safeParse(arrived.body);
    if (parsed.success) toSubscribers.add(parsed.data.roomId, parsed.data.counts);
    else options.log('warn', 'reaction counts ignored', parsed.error);
  });
  // A burst of ten, then five a second: a person's clicking, not a script's.
  const buckets = new TokenBuckets({ capacity: 10, refillPerSecond: 5 });

  const action = roomAction({
    name: 'reaction',
    admit: { schema: ReactionSendSchema, who: 'anyone' },
    async act({ body: { roomId, emoji }, userId }) {
      if (!buckets.take(userId)) {
        return refuse('rate-limited', '반응을 너무 빨리 보내고 있어요. 잠시 후 다시 보내 주세요.');
      }
      toInstances.add(roomId, { [emoji]: 1 });
      return OK;
    },
  });
  return {
    actions: { [REACTION_DESTINATION]: action },
    close: () => {
      toSubscribers.close();
      toInstances.close();
    },
  };
}
