import dgram from 'node:dgram';
import { afterEach, describe, expect, it } from 'vitest';
import { classes, Connection, Message, methods, parseMessage } from 'werift';
import { installIceLiteSelection } from './ice-lite-selection.ts';

const BROWSER_UFRAG = 'browser';
const BROWSER_PASSWORD = 'abcdefghijklmnopqrstuvwxyz';

/** A UDP socket on loopback playing a browser's candidate: sends checks, collects what comes back. */
async function candidate() {
  const socket = dgram.createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const received: Buffer[] = [];
  socket.on('message', (data) => received.push(data));
  return { socket, received, port: socket.address().port };
}

/** A connectivity check from the controlling browser, as Chromium sends it. */
function check(lite: Connection, nominate: boolean): Buffer {
  const request = new Message(methods.BINDING, classes.REQUEST)
    .setAttribute('USERNAME', `${lite.localUsername}:${BROWSER_UFRAG}`)
    .setAttribute('PRIORITY', 1_853_824_767)
    .setAttribute('ICE-CONTROLLING', 123_456_789n);
  if (nominate) request.setAttribute('USE-CANDIDATE', null);
  return request.addMessageIntegrity(Buffer.from(lite.localPassword, 'utf8')).addFingerprint().bytes;
}

const wait = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe('installIceLiteSelection', () => {
  const closers: (() => Promise<unknown> | void)[] = [];
  afterEach(async () => {
    for (const close of closers.splice(0)) await close();
  });

  it('a lite connection uses the first valid check, and follows the browser to the pair it nominates', async () => {
    installIceLiteSelection();
    const lite = new Connection(false, {
      iceLite: true,
      useIpv4: false,
      useIpv6: false,
      additionalHostAddresses: ['127.0.0.1'],
      interfaceAddresses: { udp4: '127.0.0.1' },
      useTcp: false,
    });
    closers.push(() => lite.close());
    await lite.gatherCandidates();
    const local = lite.localCandidates.find((c) => c.host === '127.0.0.1');
    if (!local) throw new Error('no loopback candidate');
    const first = await candidate();
    const second = await candidate();
    closers.push(
      () => void first.socket.close(),
      () => void second.socket.close(),
    );

    // The browser's first check arrives before its answer (the SFU has not got its credentials yet): it is
    // answered at once, and counted once the answer is there.
    first.socket.send(check(lite, false), local.port, '127.0.0.1');
    await wait(100);
    const response = first.received[0] && parseMessage(first.received[0]);
    expect(response?.messageClass).toBe(classes.RESPONSE);
    lite.setRemoteParams({ iceLite: false, usernameFragment: BROWSER_UFRAG, password: BROWSER_PASSWORD });
    // connect() ends once a pair is chosen: here without any USE-CANDIDATE (werift alone waits for one).
    const connected = await Promise.race([lite.connect().then(() => true), wait(2_000).then(() => false)]);
    expect(connected).toBe(true);
    expect(lite.nominated?.remoteAddr).toEqual(['127.0.0.1', first.port]);

    // The browser nominates another pair: data goes there from now on.
    second.socket.send(check(lite, true), local.port, '127.0.0.1');
    await wait(100);
    expect(lite.nominated?.remoteAddr).toEqual(['127.0.0.1', second.port]);
    await lite.send(Buffer.from([0x80, 0x60, 0, 1]));
    await wait(50);
    expect(second.received.some((d) => d.length === 4 && d[0] === 0x80)).toBe(true);
  });
});
