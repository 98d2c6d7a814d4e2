/// <reference lib="dom" />
// Code inside page.evaluate runs in the browser and uses its globals.
import type { Page } from 'playwright-core';
import { makePng } from './png.ts';

export type Tokens = { accessToken: string; refreshToken: string };

/**
 * Logs in through the app's login screen and the server's dev provider page (typing the test identity).
 * By default ends on `/` for a registered account or on `/sign-info` for a new one; `landing` overrides that
 * (a visitor sent to log in by a private page returns there).
 */
export async function loginThroughDev(
  page: Page,
  baseUrl: string,
  kakaoId: string,
  landing: (pathname: string) => boolean = (pathname) => pathname === '/' || pathname === '/sign-info',
): Promise<void> {
  await page.goto(`${baseUrl}/login`);
  const button = page.getByRole('button', { name: /카카오로 로그인/ });
  await button.waitFor();
  await page.waitForFunction(() => {
    const found = [...document.querySelectorAll('button')].find((b) =>
      b.textContent?.includes('카카오로 로그인'),
    );
    return found !== undefined && !found.disabled;
  });
  await button.click();
  await page.locator('#kakao_id').fill(kakaoId);
  await page.getByRole('button', { name: '로그인' }).click();
  // The callback exchanges the code, then goes home (registered) or to sign-up (new account).
  await page.waitForURL((url) => landing(url.pathname), { timeout: 20_000 });
}

/** Fills the sign-up screen (with a profile photo when `photo` is set) and waits for the home page. */
export async function signUpThroughUi(
  page: Page,
  nickname: string,
  options: { photo?: boolean } = {},
): Promise<void> {
  await page.waitForURL((url) => url.pathname === '/sign-info');
  if (options.photo) {
    await page.getByLabel('프로필 사진').setInputFiles({
      name: 'me.png',
      mimeType: 'image/png',
      buffer: makePng(120, 120, [29, 111, 214], [127, 211, 247]),
    });
    await page.getByRole('img', { name: '선택한 이미지 미리보기' }).waitFor();
  }
  await page.getByLabel(/닉네임/).fill(nickname);
  await page.getByRole('button', { name: '가입 완료' }).click();
  await page.waitForURL((url) => url.pathname === '/');
}

/** The tokens the app stored in local storage. */
export async function storedTokens(page: Page): Promise<Tokens> {
  const tokens = await page.evaluate(() => ({
    accessToken: localStorage.getItem('accessToken'),
    refreshToken: localStorage.getItem('refreshToken'),
  }));
  if (!tokens.accessToken || !tokens.refreshToken) throw new Error('no tokens stored: not logged in');
  return { accessToken: tokens.accessToken, refreshToken: tokens.refreshToken };
}
