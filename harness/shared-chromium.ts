import { chromium } from 'playwright-core';
import type { TestProject } from 'vitest/node';
import { CHROMIUM_FLAGS, CHROMIUM_PATH, chromiumAvailable } from './chromium.ts';

/**
 * The e2e project's global setup: one Chromium for every journey file, each person of a journey a context of
 * their own in it (`launchChromium`). Starting a browser per person cost a second or two of CPU each, about
 * twenty times a run. Closed when the project's files are done.
 */
export default async function setup(project: TestProject): Promise<(() => Promise<void>) | undefined> {
  if (!chromiumAvailable()) {
    project.provide('chromiumEndpoint', undefined);
    return undefined;
  }
  const server = await chromium.launchServer({
    executablePath: CHROMIUM_PATH,
    args: CHROMIUM_FLAGS,
    headless: true,
    host: '127.0.0.1',
  });
  project.provide('chromiumEndpoint', server.wsEndpoint());
  return () => server.close();
}
