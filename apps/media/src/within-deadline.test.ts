import { describe, expect, it } from 'vitest';
import { LiveError } from './live-error.ts';
import { withinDeadline } from './within-deadline.ts';

const late = () => new LiveError('internal', '늦었어요.');
const resources = (kind: string) => process.getActiveResourcesInfo().filter((r) => r === kind).length;

describe('withinDeadline', () => {
  it('answers a handler that never settles with the refusal, at the deadline', async () => {
    const started = performance.now();
    await expect(withinDeadline(new Promise<never>(() => {}), 50, late)).rejects.toMatchObject({
      code: 'internal',
    });
    expect(performance.now() - started).toBeGreaterThanOrEqual(45);
  });

  it('passes on an answer or a refusal in time, and leaves no timer behind', async () => {
    const timers = resources('Timeout');
    await expect(withinDeadline(Promise.resolve(7), 60_000, late)).resolves.toBe(7);
    await expect(
      withinDeadline(Promise.reject(new LiveError('notFound', '없어요.')), 60_000, late),
    ).rejects.toMatchObject({ code: 'notFound' });
    expect(resources('Timeout')).toBe(timers);
  });
});
