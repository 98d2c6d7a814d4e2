/// <reference lib="dom" />
// DOM types: page.evaluate callbacks run in the browser.
//
// Web benchmark: the gzip size of the JavaScript and CSS a first visit to `/` loads, and Lighthouse's
// performance and accessibility scores (mobile preset, Debian's Chromium) for `/` and `/list`, against the
// real server with demo data. Prints its figures; not a test. Run: npm exec -- node bench/web/run-web-bench.ts
// [--runs 3]
import fs from 'node:fs';
import path from 'node:path';
import { parseArgs } from 'node:util';
import zlib from 'node:zlib';
import lighthouse from 'lighthouse';
import { chromium } from 'playwright-core';
import { CHROMIUM_FLAGS as FLAGS, CHROMIUM_PATH } from '../../harness/chromium.ts';
import { REPO_ROOT } from '../../harness/paths.ts';
import { freePort } from '@sea/service-kit/test/free-port';
import { startServer } from '../../harness/server-process.ts';
import { buildWebOnce } from '../../harness/web-build.ts';

const REPORT_DIR = path.join(REPO_ROOT, 'artifacts/bench-web');
/** Lighthouse runs per page (its simulated timings vary from run to run): the median is the figure. */
const RUNS = Math.max(
  1,
  Number(parseArgs({ options: { runs: { type: 'string', default: '3' } } }).values.runs),
);

type Asset = { url: string; kind: 'js' | 'css'; bytes: number; gzip: number };

async function firstVisitAssets(baseUrl: string): Promise<Asset[]> {
  const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: FLAGS });
  try {
    const page = await browser.newPage({ viewport: { width: 400, height: 900 } });
    const pending: Promise<Asset | null>[] = [];
    page.on('response', (response) => {
      const type = response.request().resourceType();
      if (type !== 'script' && type !== 'stylesheet') return;
      pending.push(
        response.body().then(
          (body) => ({
            url: new URL(response.url()).pathname,
            kind: type === 'script' ? 'js' : 'css',
            bytes: body.length,
            gzip: zlib.gzipSync(body, { level: 9 }).length,
          }),
          () => null,
        ),
      );
    });
    await page.goto(`${baseUrl}/`, { waitUntil: 'networkidle' });
    // The home page's own chunks load lazily after the shell: wait for its sections, then for quiet.
    await page.waitForSelector('main section', { timeout: 30_000 });
    await page.waitForLoadState('networkidle');
    return (await Promise.all(pending)).filter((asset): asset is Asset => asset !== null);
  } finally {
    await browser.close();
  }
}

const METRICS = [
  'first-contentful-paint',
  'largest-contentful-paint',
  'total-blocking-time',
  'cumulative-layout-shift',
  'speed-index',
] as const;

async function lighthouseScores(
  url: string,
  port: number,
  run: number,
): Promise<{ performance: number; accessibility: number; metrics: string }> {
  const result = await lighthouse(url, {
    port,
    output: 'json',
    logLevel: 'error',
    onlyCategories: ['performance', 'accessibility'],
  });
  if (result) {
    // The whole report, for a closer look (network requests, LCP breakdown): git-ignored.
    const file = path.join(REPORT_DIR, `lighthouse${new URL(url).pathname.replace(/\//g, '_')}-${run}.json`);
    fs.mkdirSync(REPORT_DIR, { recursive: true });
    fs.writeFileSync(file, JSON.stringify(result.lhr, null, 1));
  }
  const categories = result?.lhr.categories;
  const audits = result?.lhr.audits;
  const failing = (categories?.accessibility?.auditRefs ?? [])
    .filter((ref) => ref.weight > 0 && (audits?.[ref.id]?.score ?? 1) < 1)
    .map((ref) => ref.id);
  const lcpTable = audits?.['largest-contentful-paint-element']?.details as
    { items?: { items?: { node?: { selector?: string; nodeLabel?: string } }[] }[] } | undefined;
  const lcpNode = lcpTable?.items?.[0]?.items?.[0]?.node;
  const lcp = lcpNode ? `LCP element ${lcpNode.nodeLabel ?? ''} (${lcpNode.selector ?? '?'}); ` : '';
  const metrics =
    lcp +
    (failing.length > 0 ? `accessibility audits failing: ${failing.join(', ')}; ` : '') +
    METRICS.map((id) => `${id.replace(/-/g, ' ')} ${audits?.[id]?.displayValue ?? '?'}`).join(', ');
  return {
    metrics,
    performance: Math.round((categories?.performance?.score ?? 0) * 100),
    accessibility: Math.round((categories?.accessibility?.score ?? 0) * 100),
  };
}

const server = await startServer(buildWebOnce(), { demoData: true });
try {
  const assets = await firstVisitAssets(server.baseUrl);
  const kb = (bytes: number) => (bytes / 1024).toFixed(1);
  const total = (kind: Asset['kind']) => assets.filter((asset) => asset.kind === kind);
  console.log('First visit to / (what the browser downloads):');
  for (const asset of assets)
    console.log(`  ${asset.kind.padEnd(3)} ${kb(asset.gzip).padStart(7)} KB gzip  ${asset.url}`);
  for (const kind of ['js', 'css'] as const) {
    const list = total(kind);
    console.log(
      `  total ${kind}: ${kb(list.reduce((sum, asset) => sum + asset.gzip, 0))} KB gzip ` +
        `(${kb(list.reduce((sum, asset) => sum + asset.bytes, 0))} KB raw, ${list.length} files)`,
    );
  }

  // Each run is a first visit: a fresh browser with an empty profile (no HTTP cache, no local storage).
  for (const path of ['/', '/list']) {
    const runs: Awaited<ReturnType<typeof lighthouseScores>>[] = [];
    for (let run = 0; run < RUNS; run += 1) {
      const port = await freePort();
      const browser = await chromium.launch({
        executablePath: CHROMIUM_PATH,
        args: [...FLAGS, `--remote-debugging-port=${port}`],
      });
      try {
        runs.push(await lighthouseScores(`${server.baseUrl}${path}`, port, run));
      } finally {
        await browser.close();
      }
    }
    const sorted = [...runs].sort((a, b) => a.performance - b.performance);
    const median = sorted[Math.floor(sorted.length / 2)];
    console.log(
      `Lighthouse (mobile) ${path}: performance ${median?.performance} (median of ${runs.map((r) => r.performance).join(', ')}), ` +
        `accessibility ${median?.accessibility}`,
    );
    for (const scores of runs) console.log(`  ${scores.metrics}`);
  }
} finally {
  await server.stop();
}
