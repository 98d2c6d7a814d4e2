import { act, renderHook, waitFor } from '@testing-library/react';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { fakeRoomConnection } from '../../testing/fake-stomp.ts';
import { useModerationState } from './use-moderation-state.ts';

const TOPIC = '/topic/moderation/7';

function setUp() {
  const { stomp, connection } = fakeRoomConnection();
  const hook = renderHook(() => useModerationState(connection, 'me'));
  const deliver = (body: unknown) =>
    act(async () => stomp.last().subscriptions.get(TOPIC)?.(JSON.stringify(body)));
  return { stomp, connection, hook, deliver };
}

describe('useModerationState', () => {
  afterEach(() => vi.restoreAllMocks());

  it('ends my mute even when its timer fires a little before the wall clock reaches the end', async () => {
    const { stomp, connection, hook, deliver } = setUp();
    await act(async () => stomp.last().connectAndConfirm());
    const until = new Date(Date.now() + 200).toISOString();
    await deliver({ type: 'muted', roomId: 7, userId: 'me', until });
    expect(hook.result.current.mutedUntil).toBe(until);

    // The wall clock lags the timers by 5 ms: the first timer wakes while the mute has 5 ms left.
    const wallClock = Date.now.bind(Date);
    vi.spyOn(Date, 'now').mockImplementation(() => wallClock() - 5);
    await waitFor(() => expect(hook.result.current.mutedUntil).toBeNull(), { timeout: 2_000 });
    connection.close();
  });

  it("keeps other people's mutes and the slow mode apart from mine", async () => {
    const { stomp, connection, hook, deliver } = setUp();
    await act(async () => stomp.last().connectAndConfirm());
    const until = new Date(Date.now() + 60_000).toISOString();
    await deliver({ type: 'muted', roomId: 7, userId: 'other', until });
    await deliver({ type: 'slowMode', roomId: 7, seconds: 10 });
    expect(hook.result.current).toMatchObject({ slowSeconds: 10, mutedUntil: null, mutes: { other: until } });
    connection.close();
  });
});
