import { act, renderHook, waitFor } from '@testing-library/react';
import { describe, expect, it } from 'vitest';
import { fakeRoomConnection, type fakeStompFactory } from '../../testing/fake-stomp.ts';
import { useRoomState } from './use-room-state.ts';

const TOPIC = '/topic/questions/7';

/** A list of ids changed by `{add}` and `{remove}` bodies. */
const apply = (list: readonly number[], body: unknown): readonly number[] => {
  const change = body as { add?: number; remove?: number };
  if (change.add !== undefined) return [...list, change.add];
  return list.filter((id) => id !== change.remove);
};

function setUp() {
  const { stomp, connection } = fakeRoomConnection();
  const reads: Array<(value: readonly number[]) => void> = [];
  const load = () => new Promise<readonly number[]>((resolve) => reads.push(resolve));
  const hook = renderHook(() => useRoomState<readonly number[]>(connection, TOPIC, [], load, apply));
  return { stomp, connection, reads, hook };
}

const deliver = (stomp: ReturnType<typeof fakeStompFactory>, body: unknown): void =>
  stomp.last().subscriptions.get(TOPIC)?.(JSON.stringify(body));

describe('useRoomState', () => {
  it('reads only once the subscription is in effect, and again after a reconnect', async () => {
    const { stomp, connection, reads, hook } = setUp();
    await act(async () => stomp.last().connect());
    expect(reads).toHaveLength(0);
    await act(async () => stomp.last().confirm());
    expect(reads).toHaveLength(1);
    await act(async () => reads[0]?.([1, 2]));
    expect(hook.result.current[0]).toEqual([1, 2]);

    await act(async () => stomp.last().drop());
    await waitFor(() => expect(stomp.clients).toHaveLength(2));
    await act(async () => stomp.last().connectAndConfirm());
    expect(reads).toHaveLength(2);
    // Question 2 was deleted while away: the read is the truth.
    await act(async () => reads[1]?.([1]));
    expect(hook.result.current[0]).toEqual([1]);
    connection.close();
  });

  it('applies again what arrived while a read was on its way, so a deletion heard meanwhile holds', async () => {
    const { stomp, connection, reads, hook } = setUp();
    await act(async () => stomp.last().connectAndConfirm());
    await act(async () => {
      deliver(stomp, { remove: 2 });
      deliver(stomp, { add: 3 });
    });
    // The read was answered before the deletion: it still has 2.
    await act(async () => reads[0]?.([1, 2]));
    expect(hook.result.current[0]).toEqual([1, 3]);
    await act(async () => deliver(stomp, { add: 4 }));
    expect(hook.result.current[0]).toEqual([1, 3, 4]);
    connection.close();
  });
});
