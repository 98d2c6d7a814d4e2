import type { RTCRtpSender } from 'werift';
import { Vp8Rewriter } from '../forwarding/vp8-rewriter.ts';
import { RtpForwarder } from './rtp-forwarder.ts';

/**
 * What one of a student's m-lines carries over from one consumer to the next. The transport gives the teacher's
 * next stream of the same media an idle m-line (see `ConsumerTransport`), and the student's browser sees one RTP
 * stream there whatever feeds it: its VP8 numbering and timestamps must go on from where the last consumer
 * stopped. (Chrome was seen freezing a re-enabled webcam for 3 to 7 s when the new encoder's picture ids jumped
 * back, the live journey's webcam off and on.)
 */
export class SendState {
  /** Video only: one picture numbering for the m-line, whatever layer or stream feeds it. */
  readonly vp8: Vp8Rewriter | null;
  /** Sends through the m-line's sender (what it works out about the sender stays with the m-line too). */
  readonly forwarder: RtpForwarder;
  /** When the m-line last sent a packet (`performance.now()`), or null before any. */
  lastSentAt: number | null = null;

  constructor(media: 'audio' | 'video', sender: RTCRtpSender) {
    this.vp8 = media === 'video' ? new Vp8Rewriter() : null;
    this.forwarder = new RtpForwarder(sender);
  }
}
