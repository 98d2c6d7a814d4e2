import type { RtpPacket } from 'werift';
import {
  DepacketizeCallback,
  DurationPosition,
  JitterBufferCallback,
  RtpTimeCallback,
  WebmCallback,
  type WebmOutput,
} from 'werift/nonstandard';

/** How long the jitter buffer waits for a missing packet (a NACKed retransmission) before giving it up. */
export const RECORDING_JITTER_MS = 300;

/** A write at a position of a finished file: the header's duration. */
export type FilePatch = { position: number; bytes: Buffer };

export type WebmWriterOptions = {
  media: 'audio' | 'video';
  /** The picture size written into the header (the first keyframe's); ignored for audio. */
  size?: { width: number; height: number };
  /** Receives the file's bytes in order, from the first (the header) on. */
  output: (bytes: Buffer) => void;
  /** Packets were given up as lost: a video file needs a keyframe before its next frame can be decoded. */
  lost?: () => void;
};

/**
 * One stream's RTP packets into one WebM file (one track, VP8 or Opus), without decoding: werift's own
 * recorder pipeline (jitter buffer, RTP time, depacketizer, WebM muxer) fed by the caller instead of a werift
 * track, so the caller chooses which packets (one simulcast layer, only while recording) and when to work.
 *
 * Media time 0 of the file is its first frame. A video file starts at its first keyframe; after packets were
 * lost, delta frames are left out until the next keyframe (a short freeze rather than a smeared picture).
 */
export class WebmWriter {
  private readonly webm: WebmCallback;
  private readonly jitter: JitterBufferCallback;
  private readonly options: WebmWriterOptions;
  private frames = 0;
  private waitingForKeyframe: boolean;
  private ended: Promise<FilePatch[]> | null = null;
  private finish: ((patches: FilePatch[]) => void) | null = null;

  constructor(options: WebmWriterOptions) {
    this.options = options;
    const video = options.media === 'video';
    this.waitingForKeyframe = video;
    const clockRate = video ? 90_000 : 48_000;
    this.webm = new WebmCallback(
      [
        video
          ? {
              kind: 'video',
              codec: 'VP8',
              clockRate,
              trackNumber: 1,
              width: options.size?.width ?? 640,
              height: options.size?.height ?? 360,
            }
          : { kind: 'audio', codec: 'OPUS', clockRate, trackNumber: 1 },
      ],
      // 0: no duration until the end patches it in (a file cut off by a crash then claims none, rather than a
      // made-up one; readers measure it by its packets).
      { duration: 0 },
    );
    this.jitter = new JitterBufferCallback(clockRate, { latency: RECORDING_JITTER_MS });
    const time = new RtpTimeCallback(clockRate);
    const depacketizer = new DepacketizeCallback(
      video ? 'vp8' : 'opus',
      video ? { isFinalPacketInSequence: (header) => header.marker } : {},
    );
    this.jitter.pipe((input) => {
      if (input.isPacketLost && video) {
        this.waitingForKeyframe = true;
        options.lost?.();
      }
      time.input(input);
    });
    time.pipe(depacketizer.input);
    depacketizer.pipe((input) => {
      if (input.frame) {
        if (this.waitingForKeyframe && !input.frame.isKeyframe) return;
        this.waitingForKeyframe = false;
        this.frames += 1;
      } else if (input.eol && this.frames === 0) {
        // No frame was written (werift's muxer ignores the end of a video track that never had a keyframe).
        this.finish?.([]);
        this.finish = null;
        return;
      }
      if (video) this.webm.inputVideo(input);
      else this.webm.inputAudio(input);
    });
    this.webm.pipe(async (output) => this.take(output));
  }

  /** Adds a packet (copied: the caller's packet is shared with the forwarding path and never changed). */
  write(packet: RtpPacket): void {
    if (this.ended) return;
    this.jitter.input({ rtp: packet.clone() });
  }

  /** Frames written so far. */
  get frameCount(): number {
    return this.frames;
  }

  /**
   * Ends the file: what the jitter buffer holds, then the cues, are output; resolves with the header patch
   * (the duration) to write at their positions once every byte output before is in the file.
   * Idempotent.
   */
  end(): Promise<FilePatch[]> {
    this.ended ??= new Promise<FilePatch[]>((resolve) => {
      this.finish = resolve;
      this.jitter.input({ eol: true });
    });
    return this.ended;
  }

  private take(output: WebmOutput): void {
    if (output.saveToFile) {
      this.options.output(output.saveToFile);
    } else if (output.eol) {
      // Only the duration: werift's own file writer also sets the segment's size, but its clusters keep an
      // unknown size, which ffmpeg then reports as an error in every file ("unknown-sized element inside
      // parent with finite size"); a segment of unknown size is valid and read the same.
      this.finish?.([{ position: DurationPosition, bytes: Buffer.from(output.eol.durationElement) }]);
      this.finish = null;
    }
  }
}
