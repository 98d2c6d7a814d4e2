/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { ARTIFACTS } from '../../harness/paths.ts';
import { networkQuiet } from '../../harness/quiet-network.ts';

const require = createRequire(import.meta.url);
const AXE_SOURCE = fs.readFileSync(require.resolve('axe-core/axe.min.js'), 'utf8');

/** The two widths every screen is shot at: the mobile column and the desktop layout. */
export const WIDTHS = [400, 1280] as const;

/**
 * Whether captures write their PNGs: on a developer's machine always, under CI=true only with
 * E2E_SCREENSHOTS=1. Nobody keeps CI's artifacts, and the full-page PNGs were a third of what the captures
 * cost (7 of 21 s in three journeys); the checks with axe stay at both widths everywhere.
 */
const WRITE_PNGS = process.env.CI !== 'true' || process.env.E2E_SCREENSHOTS === '1';

export type AxeViolation = { id: string; impact: string | null; help: string; targets: string[] };

/** axe-core's serious and critical findings on the page as it is now (WCAG 2.x A and AA rules). */
export async function seriousViolations(page: Page): Promise<AxeViolation[]> {
  await transitionsEnded(page);
  // Evaluated through the DevTools protocol, which the app's Content-Security-Policy (script-src 'self')
  // does not block, unlike an injected <script>; the policy stays on for everything the app does.
  if (!(await page.evaluate(() => 'axe' in window))) await page.evaluate(AXE_SOURCE);
  return page.evaluate(async () => {
    type AxeResult = {
      violations: { id: string; impact: string | null; help: string; nodes: { target: string[] }[] }[];
    };
    const axe = (
      window as unknown as { axe: { run: (context: Document, options: object) => Promise<AxeResult> } }
    ).axe;
    const result = await axe.run(document, {
      runOnly: { type: 'tag', values: ['wcag2a', 'wcag2aa', 'wcag21a', 'wcag21aa'] },
    });
    return result.violations
      .filter((violation) => violation.impact === 'serious' || violation.impact === 'critical')
      .map((violation) => ({
        id: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.slice(0, 5).map((node) => node.target.join(' ')),
      }));
  });
}

/**
 * Waits, at most two seconds, for the page's running CSS transitions and animations to end, shadow trees
 * included; endless ones (a pulsing live dot) and those still in their delay are left out. axe reads text as
 * visible while its opacity is above 0: a media-chrome tooltip fading out for 0.3 s after its button lost
 * focus or hover was read as the play button's visible text and failed label-content-name-mismatch on CI.
 */
async function transitionsEnded(page: Page): Promise<void> {
  await page.evaluate(async () => {
    // Chromium's document.getAnimations() leaves shadow trees out: each open shadow root is asked too.
    const roots: (Document | ShadowRoot)[] = [document];
    for (const root of roots)
      for (const element of root.querySelectorAll('*'))
        if (element.shadowRoot !== null) roots.push(element.shadowRoot);
    const finite = roots
      .flatMap((root) => root.getAnimations())
      .filter((animation) => {
        // Running, finite, and past its delay: media-chrome's tooltip also shrinks its width after a 9 s
        // delay, which changes nothing a reader sees meanwhile.
        const timing = animation.effect?.getComputedTiming();
        if (animation.playState !== 'running' || timing === undefined || timing.endTime === Infinity)
          return false;
        return Number(timing.localTime ?? 0) >= (timing.delay ?? 0);
      });
    if (finite.length === 0) return;
    const cap = new Promise<void>((resolve) => setTimeout(resolve, 2_000));
    await Promise.race([Promise.allSettled(finite.map((animation) => animation.finished)), cap]);
  });
}

/**
 * Screenshots the current screen at 400 px and 1280 px wide into artifacts/e2e/screens (see WRITE_PNGS), and
 * checks it with axe at both widths; returns every serious or critical violation (the caller asserts none).
 * Each width waits for the page to paint and its requests to end (harness/quiet-network.ts); `settle: false`
 * waits only for the paint (a screen shown while a request is held on purpose).
 */
export async function captureScreen(
  page: Page,
  name: string,
  { settle = true }: { settle?: boolean } = {},
): Promise<AxeViolation[]> {
  const folder = path.join(ARTIFACTS, 'screens');
  fs.mkdirSync(folder, { recursive: true });
  const original = page.viewportSize() ?? { width: 1280, height: 900 };
  const found: AxeViolation[] = [];
  for (const width of WIDTHS) {
    await page.setViewportSize({ width, height: 900 });
    // Layout-dependent parts (media queries, the carousel) settle and images for the new width load; at most
    // a second, which a timed page (the class-created countdown) outlasts.
    await networkQuiet(page, { maxMs: settle ? 1_000 : 0 });
    if (WRITE_PNGS)
      await page.screenshot({ path: path.join(folder, `${name}-${width}.png`), fullPage: true });
    for (const violation of await seriousViolations(page))
      found.push({ ...violation, id: `${violation.id}@${width}` });
  }
  await page.setViewportSize(original);
  const report = path.join(folder, `${name}-axe.json`);
  if (found.length > 0) fs.writeFileSync(report, JSON.stringify(found, null, 2));
  else fs.rmSync(report, { force: true });
  return found;
}
