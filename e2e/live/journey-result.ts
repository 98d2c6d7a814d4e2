/**
 * A journey script's result, which also times its steps: each `result.step = name` closes the step before it,
 * and `result.stepMs` lists every step with its milliseconds in order ('launch' is what came before the first
 * step: Chromium and the imports), so a slow run shows where its time went.
 */
export function journeyResult(): Record<string, unknown> {
  const stepMs: [string, number][] = [];
  let current = 'launch';
  let since = performance.now();
  const result: Record<string, unknown> = { stepMs };
  Object.defineProperty(result, 'step', {
    enumerable: true,
    get: () => current,
    set: (name: string) => {
      const now = performance.now();
      stepMs.push([current, Math.round(now - since)]);
      current = name;
      since = now;
    },
  });
  return result;
}
