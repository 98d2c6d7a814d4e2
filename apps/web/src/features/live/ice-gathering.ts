/** How long to wait for candidates before sending an offer or answer without the rest. */
const GATHER_TIMEOUT_MS = 3_000;

/**
 * Resolves when the connection has gathered its candidates. The protocol carries whole SDPs (no trickle), so
 * an SDP is sent once it holds the candidates. A connection without any media section (a student who joined
 * before the teacher published anything) has nothing to gather: it never leaves `new`, so it resolves at once.
 */
export function iceGathered(pc: RTCPeerConnection, timeoutMs = GATHER_TIMEOUT_MS): Promise<void> {
  if (pc.iceGatheringState === 'complete') return Promise.resolve();
  if (pc.iceGatheringState === 'new' && pc.getTransceivers().length === 0) return Promise.resolve();
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
