import { PassThrough } from 'node:stream';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { prettyLogs } from './pretty-logs.ts';

describe('prettyLogs', () => {
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('turns JSON log lines into readable ones and passes other lines through', async () => {
    const written: string[] = [];
    vi.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
    const pretty = await prettyLogs(false);
    expect(pretty).not.toBeNull();
    const source = new PassThrough();
    source.pipe(pretty as NonNullable<typeof pretty>);
    const line = {
      level: 40,
      time: Date.now(),
      name: 'media',
      classId: 7,
      peerId: 'p-1',
      msg: 'peer closed',
    };
    source.write(`${JSON.stringify(line)}\n`);
    source.write('plain words\n');
    await new Promise((resolve) => setTimeout(resolve, 100));
    const out = written.join('');
    expect(out).toMatch(/WARN \(media\): peer closed/);
    expect(out).toContain('classId: 7');
    expect(out).toContain('peerId: "p-1"');
    expect(out).not.toContain('"level"');
    expect(out).toContain('plain words');
  });
});
