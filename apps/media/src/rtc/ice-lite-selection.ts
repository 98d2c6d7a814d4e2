import { Connection, CandidatePairState } from 'werift';

type Address = [host: string, port: number];
type Pair = {
  protocol: unknown;
  remoteCandidate: { host: string; port: number };
  nominated: boolean;
  updateState(state: CandidatePairState): void;
};
type Request = { attributesKeys: string[] };
/** What of werift 0.25.2's ICE connection this uses (private: `ice-lite-selection.test.ts` runs it). */
type LiteConnection = {
  iceLite: boolean;
  nominated?: Pair;
  checkList: Pair[];
  checkIncoming(message: Request, addr: Address, protocol: unknown): void;
  checkComplete(pair: Pair): void;
};

const INSTALLED = Symbol.for('sea.media.iceLiteSelection');

/**
 * Makes a lite agent (werift 0.25.2, `iceLite`) use the pair of the first valid check it handles, as lite
 * servers commonly do, and move to the pair the browser nominates (USE-CANDIDATE) if that is another one.
 *
 * Why: werift's lite agent counts ICE as done, and only then starts DTLS, once a check carries USE-CANDIDATE.
 * Chromium nominates on a later check, 50-60 ms after its first one succeeded, so every student's handshake
 * started that much later (Chromium's ICE log, bench/sfu). A valid check, answered with the local password, is
 * what nomination would confirm; where the browser goes on to nominate another pair, sending follows it (werift
 * sends on `nominated`, read at each send). Patching the prototype is the only hook: werift makes the
 * connections inside its transports; node_modules is never edited. Idempotent.
 */
export function installIceLiteSelection(): void {
  const proto = Connection.prototype as unknown as LiteConnection & { [INSTALLED]?: true };
  if (proto[INSTALLED]) return;
  const checkIncoming = proto.checkIncoming;
  proto.checkIncoming = function (this: LiteConnection, message, addr, protocol) {
    checkIncoming.call(this, message, addr, protocol);
    if (!this.iceLite) return;
    const [host, port] = addr;
    const pair = this.checkList.find(
      (p) => p.protocol === protocol && p.remoteCandidate.host === host && p.remoteCandidate.port === port,
    );
    if (!pair) return;
    if (this.nominated === undefined) {
      pair.nominated = true;
      pair.updateState(CandidatePairState.SUCCEEDED);
      this.checkComplete(pair);
    } else if (this.nominated !== pair && message.attributesKeys.includes('USE-CANDIDATE')) {
      pair.nominated = true;
      pair.updateState(CandidatePairState.SUCCEEDED);
      this.nominated = pair;
    }
  };
  proto[INSTALLED] = true;
}
