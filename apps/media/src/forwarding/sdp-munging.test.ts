import { describe, expect, it } from 'vitest';
import { iceLiteAtSessionLevel, prepareTeacherOffer, restoreNack } from './sdp-munging.ts';

const OFFER = [
  'v=0',
  'm=audio 9 UDP/TLS/RTP/SAVPF 111',
  'a=extmap:3 http://www.ietf.org/id/draft-holmer-rmcat-transport-wide-cc-extensions-01',
  'a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid',
  'a=rtpmap:111 opus/48000/2',
  'a=rtcp-fb:111 transport-cc',
  'm=video 9 UDP/TLS/RTP/SAVPF 96 97',
  'a=rtpmap:96 VP8/90000',
  'a=rtcp-fb:96 goog-remb',
  'a=rtcp-fb:96 transport-cc',
  'a=rtcp-fb:96 ccm fir',
  'a=rtcp-fb:96 nack',
  'a=rtcp-fb:96 nack pli',
  'a=rtpmap:97 rtx/90000',
  '',
].join('\r\n');

describe('prepareTeacherOffer', () => {
  it('removes transport-cc (feedback and extension) and NACK feedback, and keeps everything else', () => {
    const out = prepareTeacherOffer(OFFER);
    expect(out).not.toMatch(/transport-cc|transport-wide|nack/);
    expect(out).toContain('a=rtcp-fb:96 goog-remb\r\n');
    expect(out).toContain('a=rtcp-fb:96 ccm fir\r\n');
    expect(out).toContain('a=extmap:4 urn:ietf:params:rtp-hdrext:sdes:mid\r\n');
    expect(out.split('\r\n')).toHaveLength(OFFER.split('\r\n').length - 5);
  });
});

describe('restoreNack', () => {
  it('adds NACK and NACK PLI after each video rtpmap, for video only, once', () => {
    const answer = [
      'm=audio 9 UDP/TLS/RTP/SAVPF 111',
      'a=rtpmap:111 opus/48000/2',
      'm=video 9 UDP/TLS/RTP/SAVPF 96',
      'a=rtpmap:96 VP8/90000',
      'a=rtcp-fb:96 goog-remb',
      '',
    ].join('\r\n');
    const out = restoreNack(answer);
    expect(out).toBe(
      answer.replace(
        'a=rtpmap:96 VP8/90000',
        'a=rtpmap:96 VP8/90000\r\na=rtcp-fb:96 nack\r\na=rtcp-fb:96 nack pli',
      ),
    );
    expect(restoreNack(out)).toBe(out);
  });
});

describe('iceLiteAtSessionLevel', () => {
  it("moves werift's media-level a=ice-lite to the session, once", () => {
    const sdp = [
      'v=0',
      't=0 0',
      'm=audio 9 X 111',
      'a=ice-lite',
      'a=mid:0',
      'm=video 9 X 96',
      'a=ice-lite',
      '',
    ];
    expect(iceLiteAtSessionLevel(sdp.join('\r\n')).split('\r\n')).toEqual([
      'v=0',
      't=0 0',
      'a=ice-lite',
      'm=audio 9 X 111',
      'a=mid:0',
      'm=video 9 X 96',
      '',
    ]);
  });

  it('leaves a full-ICE description as it is', () => {
    const sdp = 'v=0\nm=audio 9 X 111\na=mid:0\n';
    expect(iceLiteAtSessionLevel(sdp)).toBe(sdp);
  });
});
