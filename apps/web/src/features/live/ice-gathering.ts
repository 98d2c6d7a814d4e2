/** How long to wait for candidates before sending an offer or answer without the rest. */
const GATHER_TIMEOUT_MS = 3_000;

/**
 * Resolves when the connection has gathered its candidates. The protocol carries whole SDPs (no trickle), so
 * an SDP is sent once it holds the candidates.
 */
export function iceGathered(pc: RTCPeerConnection, timeoutMs = GATHER_TIMEOUT_MS): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  return new Promise((resolve) => {
    const timer = setTimeout(done, timeoutMs);
    function check() {
      if (pc.iceGatheringState === 'complete') done();
    }
    function done() {
      clearTimeout(timer);
      pc.removeEventListener('icegatheringstatechange', check);
      resolve();
    }
    pc.addEventListener('icegatheringstatechange', check);
  });
}
