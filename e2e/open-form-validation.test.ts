/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
import type { Locator, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, test } from 'vitest';
import { CLASS_MESSAGES } from '@sea/contract/classes';
import { MAX_UPLOAD_BYTES } from '@sea/contract/uploads';
import { loginThroughDev, signUpThroughUi } from './harness/accounts.ts';
import { chromiumAvailable, launchChromium } from '../harness/chromium.ts';
import type { JourneyBrowser } from '../harness/chromium.ts';
import { eventually } from './harness/poll.ts';
import { makePng } from './harness/png.ts';
import { captureScreen } from './harness/screens.ts';
import { startServer } from '../harness/server-process.ts';
import type { RunningServer } from '../harness/server-process.ts';
import { buildWebOnce } from '../harness/web-build.ts';

const BANNER_INVALID = '.jpg, .png 파일만 올릴 수 있어요. 5MB 이하의 파일만 업로드할 수 있어요.';

/** The message a control is described by (its field's hint or validation message), or null. */
function messageOf(control: Locator): Promise<string | null> {
  return control.evaluate((element) => {
    const id = element.getAttribute('aria-describedby');
    return id ? (document.getElementById(id)?.textContent ?? null) : null;
  });
}

describe.skipIf(!chromiumAvailable())('open-lecture form validation', { timeout: 90_000 }, () => {
  let server: RunningServer;
  let browser: JourneyBrowser;
  let page: Page;

  beforeAll(async () => {
    const dist = buildWebOnce();
    server = await startServer(dist);
    browser = await launchChromium();
    page = await browser.newPage();
    await loginThroughDev(page, server.baseUrl, '8201');
    await signUpThroughUi(page, '문어선생');
  }, 240_000);

  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  async function openForm() {
    await page.goto(`${server.baseUrl}/lecture/open`);
    await page.getByRole('heading', { name: '강의 개설하기' }).waitFor();
    const category = page.getByLabel(/카테고리/);
    await eventually(() => category.locator('option').count()).toBeGreaterThan(1);
    return {
      category,
      title: page.getByLabel(/강의 제목/),
      goal: page.getByLabel(/강의 목표/),
      description: page.getByLabel(/강의 설명/),
      submit: page.getByRole('button', { name: '강의 개설하기' }),
    };
  }

  test('every field shows its message and the submit button stays disabled', async () => {
    const { category, title, goal, description, submit } = await openForm();
    expect(await submit.isDisabled()).toBe(true);

    // Category: choosing a category and then the placeholder again.
    await category.selectOption({ label: '프로그래밍' });
    await category.selectOption('');
    await eventually(() => messageOf(category)).toBe(CLASS_MESSAGES.categoryRequired);
    expect(await category.getAttribute('aria-invalid')).toBe('true');

    // Title: 1 character is too short, empty is required, 25 characters too long, 24 fine.
    await title.fill('파');
    await eventually(() => messageOf(title)).toBe(CLASS_MESSAGES.nameLength);
    await title.fill('');
    await eventually(() => messageOf(title)).toBe(CLASS_MESSAGES.nameRequired);
    await title.fill('   ');
    await eventually(() => messageOf(title)).toBe(CLASS_MESSAGES.nameRequired);
    await title.fill('가'.repeat(25));
    await eventually(() => messageOf(title)).toBe(CLASS_MESSAGES.nameLength);
    expect(await title.getAttribute('aria-invalid')).toBe('true');
    await title.fill('가'.repeat(24));
    await eventually(() => messageOf(title)).toBeNull();
    expect(await title.getAttribute('aria-invalid')).toBeNull();

    // Goal and description: touched and left empty.
    await goal.fill('목표');
    await goal.fill('');
    await eventually(() => messageOf(goal)).toBe(CLASS_MESSAGES.objectRequired);
    await description.focus();
    await goal.focus();
    await eventually(() => messageOf(description)).toBe(CLASS_MESSAGES.descriptionRequired);

    for (const message of [
      CLASS_MESSAGES.categoryRequired,
      CLASS_MESSAGES.objectRequired,
      CLASS_MESSAGES.descriptionRequired,
    ]) {
      expect(await page.getByText(message, { exact: true }).isVisible()).toBe(true);
    }
    expect(await submit.isDisabled()).toBe(true);
    expect(await captureScreen(page, 'open-form-messages')).toEqual([]);
  });

  test('the submit button is enabled only while every required field is valid', async () => {
    const { category, title, goal, description, submit } = await openForm();
    await category.selectOption({ label: '프로그래밍' });
    await title.fill('파도 타기 입문');
    await goal.fill('파도를 읽어요.');
    expect(await submit.isDisabled()).toBe(true);
    await description.fill('주말마다 바다에서 만나요.');
    await eventually(() => submit.isEnabled()).toBe(true);

    await goal.fill('');
    await eventually(() => submit.isDisabled()).toBe(true);
    await goal.fill('파도를 읽어요.');
    await eventually(() => submit.isEnabled()).toBe(true);
    await title.fill('가'.repeat(25));
    await eventually(() => submit.isDisabled()).toBe(true);
    await title.fill('파도 타기 입문');
    await eventually(() => submit.isEnabled()).toBe(true);
    await category.selectOption('');
    await eventually(() => submit.isDisabled()).toBe(true);
  });

  test('the banner picker refuses a non-image file and a PNG over 5 MB, and takes a small PNG', async () => {
    await openForm();
    const banner = page.getByLabel('배너 이미지');
    const preview = page.getByRole('img', { name: '선택한 이미지 미리보기' });
    const rejection = page.getByRole('alert').filter({ hasText: BANNER_INVALID });

    await banner.setInputFiles({
      name: 'notes.txt',
      mimeType: 'text/plain',
      buffer: Buffer.from('파도 타기 준비물: 보드, 래시가드\n'),
    });
    await rejection.first().waitFor();
    expect(await preview.count()).toBe(0);
    expect(await banner.evaluate((input) => (input as HTMLInputElement).files?.length ?? 0)).toBe(0);
    expect(await captureScreen(page, 'open-form-banner-rejected')).toEqual([]);

    // A real PNG whose file is larger than the limit: the image data, then padding after its end chunk
    // (decoders ignore it; the picker only looks at the type and the size).
    const small = makePng(64, 36, [11, 61, 145], [25, 179, 196]);
    const big = Buffer.concat([small, Buffer.alloc(MAX_UPLOAD_BYTES + 1 - small.length + 1024)]);
    expect(big.length).toBeGreaterThan(5 * 1024 * 1024);
    // The first notice goes before the next, so that the next is seen to be new: dismissed here, or gone by
    // itself when its 6 s ran out during the screenshot on a busy machine (the button is tested in
    // notification-provider.test.tsx).
    const dismiss = rejection.first().getByRole('button', { name: '알림 닫기' });
    if ((await rejection.count()) > 0) await dismiss.click({ timeout: 2_000 }).catch(() => undefined);
    await eventually(() => rejection.count()).toBe(0);
    await banner.setInputFiles({ name: 'huge.png', mimeType: 'image/png', buffer: big });
    await rejection.first().waitFor();
    expect(await preview.count()).toBe(0);
    expect(await banner.evaluate((input) => (input as HTMLInputElement).files?.length ?? 0)).toBe(0);

    await banner.setInputFiles({ name: 'small.png', mimeType: 'image/png', buffer: small });
    await preview.waitFor();
  });
});
