import { RTCPeerConnection } from 'werift';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LOOPBACK_RTC } from '../../test/test-media-server.ts';
import { warmUpOffers } from './offer-warm-up.ts';

const sockets = () => process.getActiveResourcesInfo().filter((kind) => kind === 'UDPWRAP').length;

afterEach(() => {
  vi.restoreAllMocks();
});

describe('warmUpOffers', () => {
  it("runs werift's offer code once on a connection it closes, opening no socket", async () => {
    const offers = vi.spyOn(RTCPeerConnection.prototype, 'createOffer');
    const closes = vi.spyOn(RTCPeerConnection.prototype, 'close');
    const before = sockets();
    await warmUpOffers(LOOPBACK_RTC);
    expect(offers).toHaveBeenCalledTimes(1);
    const [used] = offers.mock.contexts as RTCPeerConnection[];
    // werift's close may call itself again; it closes the connection that made the offer, and only that one.
    expect(new Set(closes.mock.contexts)).toEqual(new Set([used]));
    expect(used?.signalingState).toBe('closed');
    expect(sockets()).toBe(before);
  });
});
