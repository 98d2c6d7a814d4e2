import {
  POLL_CLOSE_DESTINATION,
  POLL_CREATE_DESTINATION,
  POLL_REVEAL_DESTINATION,
  POLL_VOTE_DESTINATION,
  pollTopic,
} from '@sea/contract/classroom';
import type { Poll } from '@sea/contract/classroom';
import { fetchPolls } from './api/fetch-polls.ts';
import type { RoomConnection } from '../../lib/realtime/room-connection.ts';
import { useRoomState } from './use-room-state.ts';

export type NewPoll = { question: string; options: string[]; multiple: boolean; correct: number[] | null };

export type PollsView = {
  /** Newest first. */
  polls: readonly Poll[];
  create: (poll: NewPoll) => boolean;
  vote: (pollId: number, options: number[]) => void;
  close: (pollId: number) => void;
  reveal: (pollId: number) => void;
};

const NONE: readonly Poll[] = [];

/** The polls of the live session, from the list route and then the polls topic. */
export function usePolls(connection: RoomConnection | null, classId: number): PollsView {
  const [polls, change] = useRoomState<readonly Poll[]>(
    connection,
    pollTopic(classId),
    NONE,
    async () => [...(await fetchPolls(classId)).polls].reverse(),
    applyPoll,
  );
  return {
    polls,
    create: (poll) => connection?.publish(POLL_CREATE_DESTINATION, poll) ?? false,
    vote: (pollId, options) => {
      if (connection?.publish(POLL_VOTE_DESTINATION, { pollId, options })) {
        change((list) => list.map((p) => (p.id === pollId ? { ...p, myVote: options } : p)));
      }
    },
    close: (pollId) => void connection?.publish(POLL_CLOSE_DESTINATION, { pollId }),
    reveal: (pollId) => void connection?.publish(POLL_REVEAL_DESTINATION, { pollId }),
  };
}

/** A poll's new state applied to the list (newest first), keeping my own answer. */
export function applyPoll(list: readonly Poll[], body: unknown): readonly Poll[] {
  const poll = body as Poll;
  const known = list.find((p) => p.id === poll.id);
  const next = { ...poll, myVote: known?.myVote ?? null };
  return known ? list.map((p) => (p.id === poll.id ? next : p)) : [next, ...list];
}
