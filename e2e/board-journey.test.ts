/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
import { randomBytes } from 'node:crypto';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { MEDIA_NODE_REPORT_INTERVAL_MS } from '@sea/contract/media-nodes';
import { findPdfTools } from '../apps/server/src/materials/pdf-tools.ts';
import { makePdf, makePptx } from '../apps/server/test/documents.ts';
import { skipNotice } from '../apps/server/test/skip-notice.ts';
import { chromiumAvailable, launchChromium, type JourneyBrowser } from '../harness/chromium.ts';
import { startServer, type RunningServer } from '../harness/server-process.ts';
import { buildWebOnce } from '../harness/web-build.ts';
import { loginThroughDev, signUpThroughUi, storedTokens } from './harness/accounts.ts';
import { ApiClient } from './harness/api.ts';
import { FakeMediaNode } from './harness/fake-media-node.ts';
import { drawOn, inkPixels, shownPage } from './harness/board-page.ts';
import { eventually } from './harness/poll.ts';
import { captureScreen } from './harness/screens.ts';

const PROGRAMMING = 13;
const MEDIA_SECRET = randomBytes(32).toString('hex');
/** The server converts the .pptx with LibreOffice; without it only the PDF's part runs. */
const office = findPdfTools()?.soffice ?? null;
if (office === null) {
  if (process.env.CI === 'true') throw new Error('LibreOffice (soffice) is required when CI=true');
  skipNotice('LibreOffice is not installed: the board journey leaves out its .pptx');
}

/** The materials of a class as the teacher's page reads them. */
function materialsOf(page: Page, classId: number) {
  return page.evaluate(async (id) => {
    const response = await fetch(`/api/classes/${id}/materials`, {
      headers: { authorization: `Bearer ${localStorage.getItem('accessToken') ?? ''}` },
    });
    return (
      (await response.json()) as {
        data: { id: number; name: string; kind: string; state: string; pages: number | null }[];
      }
    ).data;
  }, classId);
}

/**
 * Waits until `page` (named `who`) shows `expected` on its stage; if it never does, says what the page showed
 * instead (its address and the text of its main region), so a failure on a loaded machine can be read.
 */
async function follows(page: Page, who: string, expected: string): Promise<void> {
  try {
    await eventually(() => shownPage(page)).toBe(expected);
  } catch (error) {
    const main = await page
      .locator('#main')
      .innerText({ timeout: 2_000 })
      .catch(() => '(no #main)');
    const shown = await page.evaluate(() => {
      const stage = document.querySelector<HTMLElement>('[data-board-page]');
      const image = stage?.querySelector('img');
      return {
        stage: stage?.dataset.boardPage ?? null,
        image: image ? [image.complete, image.naturalWidth] : null,
      };
    });
    throw new Error(
      `${who} did not show ${expected}: ${JSON.stringify(shown)} at ${page.url()}\n${main.slice(0, 600)}`,
      { cause: error },
    );
  }
}

/**
 * Issue 31's journey without the media service (the live project's replay journey records one): the teacher
 * uploads a 3-page PDF and a .pptx, presents the PDF, turns pages, writes with the pen and the highlighter on a
 * page and on a blank page and lets a student write; two students (one at 400 px) see every page and stroke on
 * their canvases; a student who joins late lands on the current page with its ink; the .pptx, converted by
 * LibreOffice meanwhile, goes on stage with its pages.
 */
describe.skipIf(!chromiumAvailable())('board journey', { timeout: 180_000 }, () => {
  let server: RunningServer;
  const browsers: JourneyBrowser[] = [];
  let teacher: Page;
  let first: Page;
  let phone: Page;
  let classId = 0;
  let materialId = 0;
  let reports: ReturnType<typeof setInterval> | undefined;

  async function person(code: string, nickname: string): Promise<Page> {
    const browser = await launchChromium();
    browsers.push(browser);
    const page = await browser.newPage();
    await loginThroughDev(page, server.baseUrl, code);
    await signUpThroughUi(page, nickname);
    return page;
  }

  beforeAll(async () => {
    // Two jobs at once: the PDF's conversion does not wait behind LibreOffice's.
    server = await startServer(buildWebOnce(), { env: { MEDIA_SECRET, JOB_CONCURRENCY: '2' } });
    teacher = await person('8501', '판서선생');
    first = await person('8502', '물결학생');
    phone = await person('8503', '모래학생');
    const api = new ApiClient(server.baseUrl, await storedTokens(teacher));
    classId = await api.createClass({ categoryId: PROGRAMMING, name: '판서 교실' });
    for (const page of [first, phone])
      await new ApiClient(server.baseUrl, await storedTokens(page)).enroll(classId);
    await api.setLive(classId, true);
    const node = new FakeMediaNode(server.baseUrl, classId, MEDIA_SECRET);
    await node.report();
    reports = setInterval(() => void node.report().catch(() => undefined), MEDIA_NODE_REPORT_INTERVAL_MS);
  }, 240_000);

  afterAll(async () => {
    if (reports) clearInterval(reports);
    for (const browser of browsers) await browser.close();
    await server?.stop();
  });

  test('the teacher uploads a .pptx and a 3-page PDF and sees the PDF converted', async () => {
    await teacher.goto(`${server.baseUrl}/dashboard/teacher/${classId}`);
    const upload = teacher.getByLabel('자료 올리기', { exact: true });
    if (office !== null) {
      // First, so that LibreOffice converts it while the PDF's steps run.
      await upload.setInputFiles({
        name: '밀물과 썰물.pptx',
        mimeType: 'application/vnd.openxmlformats-officedocument.presentationml.presentation',
        buffer: makePptx(['Tides 1', 'Tides 2']),
      });
      await teacher.getByText("'밀물과 썰물'을(를) 올렸어요. 페이지로 바꾸는 중이에요.").waitFor();
    }
    await upload.setInputFiles({
      name: '파도의 원리.pdf',
      mimeType: 'application/pdf',
      buffer: makePdf(['Waves 1', 'Waves 2', 'Waves 3']),
    });
    const row = teacher.getByRole('listitem').filter({ hasText: '파도의 원리' });
    await row.getByText('PDF · 3쪽').waitFor({ timeout: 60_000 });
    expect(await captureScreen(teacher, 'board-materials-teacher')).toEqual([]);
    const materials = await materialsOf(teacher, classId);
    materialId = materials.find((material) => material.kind === 'pdf')?.id ?? 0;
    expect(materialId).toBeGreaterThan(0);
  });

  test('students follow the pages and see every stroke, one on a phone', async () => {
    await phone.setViewportSize({ width: 400, height: 860 });
    await teacher.setViewportSize({ width: 1280, height: 900 });
    await teacher.goto(`${server.baseUrl}/live/teacher/${classId}`);
    await first.goto(`${server.baseUrl}/live/student/${classId}`);
    await phone.goto(`${server.baseUrl}/live/student/${classId}`);
    await teacher.getByLabel('발표할 자료').selectOption({ label: '파도의 원리' });
    const everyone = { teacher, first, phone };
    for (const [who, page] of Object.entries(everyone)) await follows(page, who, `${materialId}:1`);

    // The arrows turn pages unless a field has them: the teacher leaves the material's select first (on a
    // loaded machine the key otherwise reached the select, which keeps its arrows, and no page turned).
    await teacher.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await teacher.keyboard.press('ArrowRight');
    for (const [who, page] of Object.entries(everyone)) await follows(page, who, `${materialId}:2`);
    await drawOn(teacher, [0.2, 0.3], [0.7, 0.5]);
    const key = `${materialId}:2`;
    for (const page of [first, phone]) await eventually(() => inkPixels(page, key)).toBeGreaterThan(200);
    const afterPen = [await inkPixels(first, key), await inkPixels(phone, key)];
    await teacher.getByRole('button', { name: '형광펜' }).click();
    await drawOn(teacher, [0.2, 0.7], [0.8, 0.7]);
    // The highlighter's wide band adds hundreds of pixels even on the phone's small page.
    await eventually(() => inkPixels(first, key)).toBeGreaterThan((afterPen[0] ?? 0) + 500);
    await eventually(() => inkPixels(phone, key)).toBeGreaterThan((afterPen[1] ?? 0) + 300);

    // The phone leafs back alone, then follows the teacher again.
    await phone.getByRole('button', { name: '이전 페이지' }).click();
    await eventually(() => shownPage(phone)).toBe(`${materialId}:1`);
    expect(await shownPage(first)).toBe(`${materialId}:2`);
    expect(await captureScreen(phone, 'board-student-leafing')).toEqual([]);
    await phone.getByRole('button', { name: '선생님 화면 따라가기' }).click();
    await eventually(() => shownPage(phone)).toBe(`${materialId}:2`);
    expect(await captureScreen(teacher, 'board-teacher-page')).toEqual([]);
  });

  test('a blank page, a student invited to write, and a late joiner who sees it all', async () => {
    await teacher.getByRole('button', { name: '빈 페이지 추가' }).click();
    for (const page of [teacher, first, phone]) await eventually(() => shownPage(page)).toBe('0:1');
    await teacher.getByRole('button', { name: '펜', exact: true }).click();
    await drawOn(teacher, [0.1, 0.1], [0.5, 0.6]);
    for (const page of [first, phone]) await eventually(() => inkPixels(page, '0:1')).toBeGreaterThan(200);
    const teacherInk = await inkPixels(phone, '0:1');

    await first.getByRole('button', { name: '손들기' }).click();
    await teacher.getByRole('button', { name: '판서 허락' }).click();
    await first.getByText('선생님이 판서를 허락했어요. 펜으로 쓸 수 있어요.').waitFor();
    await drawOn(first, [0.6, 0.2], [0.9, 0.8]);
    for (const page of [teacher, phone])
      await eventually(() => inkPixels(page, '0:1')).toBeGreaterThan(teacherInk + 200);

    const late = await person('8504', '늦은학생');
    await new ApiClient(server.baseUrl, await storedTokens(late)).enroll(classId);
    await late.goto(`${server.baseUrl}/live/student/${classId}`);
    await eventually(() => shownPage(late)).toBe('0:1');
    await eventually(() => inkPixels(late, '0:1')).toBeGreaterThan(teacherInk + 200);
    expect(await captureScreen(late, 'board-late-joiner')).toEqual([]);
  });

  test.skipIf(office === null)('the .pptx, converted meanwhile, goes on stage with its pages', async () => {
    // The teacher's material list reads again while one converts: the .pptx joins the picker once ready.
    const picker = teacher.getByLabel('발표할 자료');
    await picker
      .locator('option', { hasText: '밀물과 썰물' })
      .waitFor({ state: 'attached', timeout: 120_000 });
    const pptx = (await materialsOf(teacher, classId)).find((material) => material.kind === 'pptx');
    expect(pptx).toMatchObject({ name: '밀물과 썰물', state: 'ready', pages: 2 });
    await picker.selectOption({ label: '밀물과 썰물' });
    for (const [who, page] of Object.entries({ teacher, first })) await follows(page, who, `${pptx?.id}:1`);
    await teacher.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
    await teacher.keyboard.press('ArrowRight');
    for (const [who, page] of Object.entries({ teacher, first })) await follows(page, who, `${pptx?.id}:2`);
  });
});
