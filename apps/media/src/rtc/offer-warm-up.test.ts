import { describe, expect, it } from 'vitest';
import { LOOPBACK_RTC } from '../../test/test-media-server.ts';
import { warmUpOffers } from './offer-warm-up.ts';

const sockets = () => process.getActiveResourcesInfo().filter((kind) => kind === 'UDPWRAP').length;

describe('warmUpOffers', () => {
  it("runs werift's offer code on a connection it closes, opening no socket", async () => {
    const before = sockets();
    await warmUpOffers(LOOPBACK_RTC);
    expect(sockets()).toBe(before);
  });
});
