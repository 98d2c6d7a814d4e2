import type { Reporter, TestModule } from 'vitest/node';

/** How many files the summary names. */
const SHOWN = 10;

/** A file's own time: its setup, its import (collection) and its tests and hooks. */
function secondsOf(module: TestModule): number {
  const diagnostic = module.diagnostic();
  const ms =
    diagnostic.environmentSetupDuration +
    diagnostic.prepareDuration +
    diagnostic.collectDuration +
    diagnostic.setupDuration +
    diagnostic.duration;
  return ms / 1000;
}

/**
 * Prints the ten slowest test files at the end of every run, with their projects and where the time went, and
 * each project's files' time added up, so that a suite that grows slower is seen in the run that made it so,
 * not weeks later.
 */
export default class SlowestFiles implements Reporter {
  onTestRunEnd(modules: ReadonlyArray<TestModule>): void {
    const slowest = [...modules].sort((a, b) => secondsOf(b) - secondsOf(a)).slice(0, SHOWN);
    if (slowest.length === 0) return;
    const lines = slowest.map((module) => {
      const { collectDuration, duration } = module.diagnostic();
      const total = secondsOf(module).toFixed(1).padStart(6);
      const detail = `import ${(collectDuration / 1000).toFixed(1)} s, tests ${(duration / 1000).toFixed(1)} s`;
      return `  ${total} s  ${module.project.name.padEnd(16)} ${module.relativeModuleId} (${detail})`;
    });
    // Per project, the files' time added up: where the suite's time goes, beside which files are slowest.
    const projects = new Map<string, { files: number; seconds: number }>();
    for (const module of modules) {
      const name = module.project.name;
      const sum = projects.get(name) ?? { files: 0, seconds: 0 };
      projects.set(name, { files: sum.files + 1, seconds: sum.seconds + secondsOf(module) });
    }
    const totals = [...projects]
      .sort(([, a], [, b]) => b.seconds - a.seconds)
      .map(
        ([name, sum]) => `  ${sum.seconds.toFixed(0).padStart(6)} s  ${name.padEnd(16)} ${sum.files} files`,
      );
    process.stdout.write(
      `\nThe ${slowest.length} slowest test files:\n${lines.join('\n')}\n` +
        `\nEach project's files added up:\n${totals.join('\n')}\n`,
    );
  }
}
