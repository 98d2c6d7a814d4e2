import fs from 'node:fs';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { PAGES } from '@sea/contract/paths';
import { cataloguePage } from './catalogue-pages.ts';

const WEB_APP = fileURLToPath(new URL('../../../web/', import.meta.url));

describe('cataloguePage', () => {
  it.each([PAGES.home, PAGES.list, PAGES.liveList])(
    "names %s's route module by a file the web app has (a renamed route file fails here)",
    (pathname) => {
      const page = cataloguePage(pathname, new URLSearchParams());
      expect(page?.routeModule).toMatch(/^src\/app\/routes\/[a-z-]+\.tsx$/);
      expect(fs.existsSync(`${WEB_APP}${page?.routeModule}`)).toBe(true);
    },
  );

  it('has no embedded answers for other pages', () => {
    expect(cataloguePage(PAGES.mypage, new URLSearchParams())).toBeNull();
  });
});
