import type { Socket } from 'socket.io-client';
import { expect } from 'vitest';
import { RtpHeader, type RTCRtpTransceiver } from 'werift';
import { ok, request } from './test-media-server.ts';
import { acceptAnswer, createClientPeerConnection, offerOf } from './werift-clients.ts';

/** The first payload byte of every synthetic speaker packet after the Opus TOC: tells speakers apart. */
export const SPEAKER_MARK_OFFSET = 1;

/**
 * A speaking student's browser on the wire, built on werift: one send-only audio m-line (the microphone),
 * Opus-shaped packets every 20 ms carrying `mark` so a receiver can tell whose voice arrived. With `video`, a
 * video m-line too (to try publishing what a student never may).
 */
export class SyntheticSpeaker {
  readonly pc = createClientPeerConnection('teacher');
  readonly audio: RTCRtpTransceiver;
  readonly video: RTCRtpTransceiver | null;
  private readonly mark: number;
  private timer: NodeJS.Timeout | null = null;
  private seq = 1;

  constructor(mark: number, options: { video?: boolean } = {}) {
    this.mark = mark;
    this.audio = this.pc.addTransceiver('audio', { direction: 'sendonly' });
    this.video = options.video ? this.pc.addTransceiver('video', { direction: 'sendonly' }) : null;
  }

  offer(): Promise<string> {
    return offerOf(this.pc);
  }

  accept(answer: string): Promise<void> {
    return acceptAnswer(this.pc, answer);
  }

  /** Sends a packet every 20 ms until {@link stop}. */
  start(): void {
    this.timer ??= setInterval(() => this.send(), 20);
  }

  stop(): void {
    if (this.timer) clearInterval(this.timer);
    this.timer = null;
  }

  async close(): Promise<void> {
    this.stop();
    await this.pc.close();
  }

  private send(): void {
    const header = new RtpHeader({
      payloadType: this.audio.codecs[0]?.payloadType ?? 111,
      ssrc: this.audio.sender.ssrc,
      sequenceNumber: this.seq,
      timestamp: this.seq * 960,
      extensions: [],
    });
    this.seq = (this.seq + 1) & 0xffff;
    // TOC 0xf8 (CELT fullband, 20 ms, mono, one frame), then the speaker's mark.
    const payload = Buffer.alloc(60, this.mark);
    payload[0] = 0xf8;
    void this.audio.dtlsTransport.sendRtp(payload, header);
  }
}

/**
 * A student in the room who was not invited to speak: every publishing request is refused with `refusal`, and
 * acceptSpeak because there is no invitation.
 */
export async function expectUninvitedRefused(socket: Socket, refusal: object): Promise<void> {
  expect(await request(socket, 'createProducerTransport')).toMatchObject(refusal);
  expect(
    await request(socket, 'produce', { transportId: 'any', producerKind: 'speakerAudio', mid: '0' }),
  ).toMatchObject(refusal);
  expect(await request(socket, 'acceptSpeak')).toMatchObject({
    error: { code: 'forbidden', message: '강사의 발언 요청을 받지 않았어요.' },
  });
}

/**
 * An invited student (`socket`, in the room) accepts, publishes their microphone with the teacher's publishing
 * requests and keeps sending packets with `mark`. The caller closes the speaker.
 */
export async function acceptAndSpeak(
  socket: Socket,
  mark: number,
): Promise<{ speaker: SyntheticSpeaker; producerId: string; transportId: string }> {
  await ok(socket, 'acceptSpeak');
  const speaker = new SyntheticSpeaker(mark);
  try {
    const { transportId } = await ok(socket, 'createProducerTransport');
    const offer = await speaker.offer();
    const { sdp } = await ok(socket, 'connectProducerTransport', { transportId, sdp: offer });
    await speaker.accept(sdp);
    speaker.start();
    const { producerId } = await ok(socket, 'produce', {
      transportId,
      producerKind: 'speakerAudio',
      mid: speaker.audio.mid ?? '',
    });
    return { speaker, producerId, transportId };
  } catch (error) {
    speaker.close();
    throw error;
  }
}
