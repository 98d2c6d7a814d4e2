/** URIs of the transport-wide congestion control header extension (both drafts). */
const TRANSPORT_CC_URIS = [
  'http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01',
  'http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-02',
];

function split(sdp: string): { list: string[]; eol: string } {
  const eol = sdp.includes('\r\n') ? '\r\n' : '\n';
  return { list: sdp.split(eol), eol };
}

/**
 * Prepares the teacher's offer for werift. werift echoes the offer's feedback types in its answer and then
 * acts on them itself, so two are removed before it sees them:
 * - transport-cc (feedback and header extension): werift's transport-wide feedback is malformed and keeps
 *   Chrome's estimate near 300 kbit/s; the SFU sends REMB instead.
 * - NACK (`nack` and `nack pli`: werift enables its receiver-side NACK for either): werift's NACK mixes the
 *   simulcast SSRCs; the SFU sends its own per SSRC, and its own PLIs. {@link restoreNack} puts both back into
 *   the answer so the browser still retransmits and answers PLIs.
 */
export function prepareTeacherOffer(sdp: string): string {
  const { list, eol } = split(sdp);
  return list
    .filter((line) => {
      if (/^a=rtcp-fb:\S+ (transport-cc|nack|nack pli)\s*$/.test(line)) return false;
      const extmap = /^a=extmap:\d+(?:\/\w+)? (\S+)/.exec(line);
      return !(extmap && TRANSPORT_CC_URIS.includes(extmap[1] ?? ''));
    })
    .join(eol);
}

/**
 * Adds `nack` and `nack pli` feedback to every video payload type of the answer (right after its rtpmap),
 * where werift, not having seen them (see {@link prepareTeacherOffer}), left them out.
 */
export function restoreNack(sdp: string): string {
  const { list, eol } = split(sdp);
  const present = new Set(list.filter((line) => line.startsWith('a=rtcp-fb:')));
  const out: string[] = [];
  let video = false;
  for (const line of list) {
    if (line.startsWith('m=')) video = line.startsWith('m=video');
    out.push(line);
    const rtpmap = /^a=rtpmap:(\d+) /.exec(line);
    if (video && rtpmap) {
      for (const type of ['nack', 'nack pli']) {
        const feedback = `a=rtcp-fb:${rtpmap[1]} ${type}`;
        if (!present.has(feedback)) out.push(feedback);
      }
    }
  }
  return out.join(eol);
}
