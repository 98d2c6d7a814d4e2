import { RtpHeader, RtpPacket } from 'werift';
import { describe, expect, it } from 'vitest';
import type { Layer } from '@sea/contract/live';
import type { RecordingEvent } from '@sea/contract/recording';
import { Signal } from '../signal.ts';
import type { StreamSource } from '../rtc/stream-source.ts';
import { StreamRecorder } from './stream-recorder.ts';

const KEY = [0x10, 0x50, 0x42, 0x00, 0x9d, 0x01, 0x2a, 0x40, 0x01, 0xb4, 0x00];
const DELTA = [0x10, 0x51, 0x42, 0x00];

function fakeSource(available: Layer[]) {
  const requests: Layer[] = [];
  const source = {
    id: 'p',
    kind: 'webcamVideo',
    media: 'video',
    packet: new Signal<[Layer, RtpPacket, boolean]>(),
    closed: new Signal(),
    simulcast: true,
    isClosedNow: false,
    availableLayers: () => available,
    requestKeyframe: (layer: Layer) => requests.push(layer),
    heldKeyframe: () => null,
  } satisfies StreamSource;
  const seq: Record<Layer, number> = { q: 100, h: 2_000, f: 40_000 };
  const send = (layer: Layer, key: boolean) => {
    seq[layer] += 1;
    const header = new RtpHeader({
      payloadType: 96,
      sequenceNumber: seq[layer],
      timestamp: seq[layer] * 3_000,
      marker: true,
    });
    source.packet.emit(layer, new RtpPacket(header, Buffer.from(key ? KEY : DELTA)), key);
  };
  return { source, requests, send };
}

function recorder(source: StreamSource) {
  const events: RecordingEvent[] = [];
  const bytes = new Map<string, number>();
  const stream = new StreamRecorder(source, {
    sessionMs: (at) => Math.round(at),
    nextFile: (kind) => {
      const n = events.filter((e) => e.type === 'track').length + 1;
      return { track: `${kind}-${n}`, file: `${kind}-${n}.webm` };
    },
    append: (file, chunk) => bytes.set(file, (bytes.get(file) ?? 0) + chunk.length),
    finish: () => undefined,
    event: (event) => events.push(event),
  });
  return {
    stream,
    events,
    bytes,
    kinds: () => events.map((e) => `${e.type}:${'track' in e ? e.track : ''}`),
  };
}

describe('StreamRecorder', () => {
  it('records the best layer from its keyframe, and starts a new file at a layer switch', async () => {
    const available: Layer[] = ['q', 'h', 'f'];
    const { source, requests, send } = fakeSource(available);
    const { stream, bytes, kinds } = recorder(source);
    send('q', false);
    send('f', false);
    stream.drain();
    // Nothing before the best layer's keyframe, which is asked for once.
    expect(kinds()).toEqual([]);
    expect(requests).toEqual(['f']);
    send('q', true);
    send('f', true);
    send('f', false);
    send('q', false);
    stream.drain();
    expect(kinds()).toEqual(['track:webcamVideo-1']);

    // f stops arriving: q is asked for, and f's file goes on until q's keyframe.
    available.splice(1, 2);
    send('q', false);
    stream.drain();
    expect(requests).toEqual(['f', 'q']);
    expect(kinds()).toEqual(['track:webcamVideo-1']);
    send('q', true);
    send('q', false);
    stream.drain();
    expect(kinds()).toEqual(['track:webcamVideo-1', 'trackEnd:webcamVideo-1', 'track:webcamVideo-2']);

    stream.close();
    expect(kinds().at(-1)).toBe('trackEnd:webcamVideo-2');
    await new Promise((resolve) => setTimeout(resolve, 10));
    // Each file got its header and frames.
    expect(bytes.get('webcamVideo-1.webm')).toBeGreaterThan(100);
    expect(bytes.get('webcamVideo-2.webm')).toBeGreaterThan(100);
    // Nothing is kept after the close.
    send('q', true);
    stream.drain();
    expect(kinds()).toHaveLength(4);
  });

  it('after a stop, a restart starts a new file at the next keyframe', () => {
    const { source, send } = fakeSource(['q', 'h', 'f']);
    const { stream, kinds } = recorder(source);
    send('f', true);
    stream.drain();
    stream.drain();
    send('f', true);
    stream.drain();
    stream.stop();
    send('f', true);
    stream.drain();
    stream.restart();
    send('f', false);
    stream.drain();
    expect(kinds()).toEqual(['track:webcamVideo-1', 'trackEnd:webcamVideo-1']);
    send('f', true);
    stream.drain();
    expect(kinds()).toEqual(['track:webcamVideo-1', 'trackEnd:webcamVideo-1', 'track:webcamVideo-2']);
  });
});
