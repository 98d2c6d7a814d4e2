import fs from 'node:fs';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ROUTES } from '@sea/contract/paths';
import { buildTestApp } from '../../apps/server/test/helper.ts';
import { declaredMetrics, parsePrometheusText } from '../../apps/server/test/prometheus-text.ts';
import { startTestMedia } from '../../apps/media/test/test-media-server.ts';

type Panel = { id: number; type: string; title: string; targets?: { expr: string }[]; panels?: Panel[] };
const dashboard = JSON.parse(fs.readFileSync(new URL('./sea-academy.json', import.meta.url), 'utf8')) as {
  uid: string;
  title: string;
  panels: Panel[];
};

/** PromQL's functions, aggregations and keywords: every other identifier outside braces is a metric name. */
const PROMQL_WORDS = new Set(
  (
    'sum max min avg count stddev topk bottomk quantile rate irate increase delta deriv histogram_quantile ' +
    'clamp_min clamp_max abs ceil floor round sqrt ln log2 log10 exp time vector scalar absent ' +
    'by without on ignoring group_left group_right and or unless offset bool'
  ).split(' '),
);

/** The metric names a PromQL expression reads. */
function metricNames(expr: string): string[] {
  const bare = expr
    .replace(/"(?:[^"\\]|\\.)*"/g, '""') // label values
    .replace(/\{[^}]*\}/g, '') // label matchers
    .replace(/\[[^\]]*\]/g, '') // range durations
    .replace(/\b(?:by|without|on|ignoring|group_left|group_right)\s*\([^)]*\)/g, '') // label lists
    .replace(/(?<![\w:])\d+(?:\.\d+)?(?:e[-+]?\d+)?/gi, ''); // numbers, 1e-9 included
  return [...bare.matchAll(/[a-zA-Z_:][a-zA-Z0-9_:]*/g)]
    .map(([name]) => name)
    .filter((name) => !PROMQL_WORDS.has(name));
}

const expressions = dashboard.panels
  .flatMap((panel) => [panel, ...(panel.panels ?? [])])
  .flatMap((panel) => (panel.targets ?? []).map((target) => ({ panel: panel.title, expr: target.expr })));

/** Every series name a /metrics text can carry: declared metrics, and a histogram's three series. */
function exposedNames(text: string): Set<string> {
  const names = new Set(parsePrometheusText(text).map((sample) => sample.name));
  for (const [name, type] of declaredMetrics(text)) {
    names.add(name);
    if (type === 'histogram')
      for (const suffix of ['_bucket', '_sum', '_count']) names.add(`${name}${suffix}`);
  }
  return names;
}

describe('the Grafana dashboard', () => {
  let api: FastifyInstance;
  let media: Awaited<ReturnType<typeof startTestMedia>>;
  const exposed = { api: new Set<string>(), media: new Set<string>() };

  beforeAll(async () => {
    api = await buildTestApp();
    // With a forwarding worker, as on a machine with more than one core.
    media = await startTestMedia({ workers: 1 });
    const apiText = (await api.inject({ url: ROUTES.metrics })).body;
    const mediaResponse = await fetch(`${media.url}${ROUTES.metrics}`);
    expect(mediaResponse.status).toBe(200);
    exposed.api = exposedNames(apiText);
    exposed.media = exposedNames(await mediaResponse.text());
  });
  afterAll(async () => {
    await media?.close();
    await api?.close();
  });

  it('is a dashboard Grafana can import: a uid, a title, panels with unique ids and a query each', () => {
    expect(dashboard.uid).toBe('sea-academy');
    expect(dashboard.title).toMatch(/바다학원/);
    const ids = dashboard.panels.map((panel) => panel.id);
    expect(new Set(ids).size).toBe(ids.length);
    for (const panel of dashboard.panels.filter((p) => p.type !== 'row')) {
      expect(panel.targets?.length, panel.title).toBeGreaterThan(0);
    }
    expect(expressions.length).toBeGreaterThan(20);
  });

  it('reads only metrics that the API server or the media service really exposes', () => {
    const missing = expressions.flatMap(({ panel, expr }) =>
      metricNames(expr)
        .filter((name) => !exposed.api.has(name) && !exposed.media.has(name))
        .map((name) => `${panel}: ${name}`),
    );
    expect(missing).toEqual([]);
    const read = new Set(expressions.flatMap(({ expr }) => metricNames(expr)));
    // Both services are on it, with their own metrics.
    expect(
      [...read].filter((name) => name.startsWith('media_') && exposed.media.has(name)).length,
    ).toBeGreaterThan(5);
    expect(
      [...read].filter((name) => name.startsWith('chat_') && exposed.api.has(name)).length,
    ).toBeGreaterThan(3);
    expect(read.has('http_request_duration_seconds_bucket')).toBe(true);
    for (const name of ['uploads_total', 'upload_bytes_total', 'upload_duration_seconds_bucket'])
      expect(read.has(name), name).toBe(true);
  });

  it('finds the metric names in PromQL, and so would notice one that does not exist', () => {
    expect(
      metricNames(
        'histogram_quantile(0.95, sum by (le, route) (rate(http_request_duration_seconds_bucket{route!="x"}[5m])))',
      ),
    ).toEqual(['http_request_duration_seconds_bucket']);
    expect(metricNames('sum(rate(a_total[1m])) / clamp_min(sum(rate(b_total[1m])), 1e-9) * 8')).toEqual([
      'a_total',
      'b_total',
    ]);
    expect(exposed.api.has('media_rooms_typo') || exposed.media.has('media_rooms_typo')).toBe(false);
  });
});
