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

/**
 * Moves werift's `a=ice-lite` from each media section, where it writes it, to the session level, the only
 * place RFC 8839 defines it and browsers read it. Chromium 156 ignored it in the media sections: answering the
 * SFU's offer it took the controlled role, its first checks drew 487 (role conflict) from the lite agent, and it
 * became writable only on a check some 120 ms later, after switching roles (seen in its ICE log, bench/sfu).
 */
export function iceLiteAtSessionLevel(sdp: string): string {
  const { list, eol } = split(sdp);
  if (!list.includes('a=ice-lite')) return sdp;
  const firstMedia = list.findIndex((line) => line.startsWith('m='));
  const session = list.slice(0, firstMedia < 0 ? list.length : firstMedia);
  const media = firstMedia < 0 ? [] : list.slice(firstMedia);
  return [...session, 'a=ice-lite', ...media.filter((line) => line !== 'a=ice-lite')].join(eol);
}
