import { describe, expect, it } from 'vitest';
import type { PageName } from '@sea/contract/page-modules';
import { PAGES } from '@sea/contract/paths';
import { loadPage } from './page-modules.ts';

describe('loadPage', () => {
  it.each(Object.keys(PAGES) as PageName[])(
    'finds the route module of %s by its contract name (a renamed route file fails here)',
    (name) => {
      expect(() => loadPage(name)).not.toThrow();
    },
  );

  it('loads a module that exports the page', async () => {
    const module = await loadPage('list')();
    expect(typeof module.Component).toBe('function');
  });
});
