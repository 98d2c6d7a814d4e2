import { EventEmitter } from 'node:events';
import { describe, expect, it } from 'vitest';
import { LogDestination } from './log-destination.ts';

/** A stream whose reader takes nothing until `read()`. */
class StuckStream extends EventEmitter {
  readonly written: string[] = [];
  writableLength = 0;
  write(chunk: string): boolean {
    this.written.push(chunk);
    this.writableLength += chunk.length;
    return false;
  }
  read(): void {
    this.writableLength = 0;
    this.emit('drain');
  }
}

describe('LogDestination', () => {
  it('drops lines while the reader is too far behind, then says how many', () => {
    const stream = new StuckStream();
    const logs = new LogDestination(stream, 10);
    logs.write('0123456789\n');
    logs.write('dropped\n');
    logs.write('dropped\n');
    expect(stream.written).toEqual(['0123456789\n']);
    expect(logs.droppedLines).toBe(2);
    stream.read();
    logs.write('next\n');
    expect(stream.written).toHaveLength(3);
    expect(JSON.parse(stream.written[1] ?? '')).toMatchObject({
      level: 40,
      msg: expect.stringContaining('2 log lines'),
    });
    expect(stream.written[2]).toBe('next\n');
  });

  it('writes nothing more once the stream failed (EPIPE), without throwing', () => {
    const stream = new StuckStream();
    const logs = new LogDestination(stream);
    stream.emit('error', Object.assign(new Error('write EPIPE'), { code: 'EPIPE' }));
    logs.write('lost\n');
    expect(stream.written).toEqual([]);
  });

  it('flush waits for the reader, but never longer than it is told', async () => {
    const stream = new StuckStream();
    const logs = new LogDestination(stream);
    logs.write('line\n');
    const started = Date.now();
    await logs.flush(50);
    expect(Date.now() - started).toBeGreaterThanOrEqual(45);
    const flushed = logs.flush(10_000);
    stream.read();
    await flushed;
    await logs.flush(10_000); // nothing pending: at once
  });
});
