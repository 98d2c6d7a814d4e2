import { describe, expect, it } from 'vitest';
import { bannerCardPath, bannerCardSrcSet, isAcceptableImage } from './uploads.ts';

const ID = '0b6f5a4e-2c1d-4e8f-9a7b-3c2d1e0f9a8b';

describe('banner card copies', () => {
  it.each([
    [`/uploads/banners/${ID}.jpg`, `/uploads/banners/${ID}.card.jpg`],
    [`/uploads/banners/${ID}.png`, `/uploads/banners/${ID}.card.png`],
    [`/uploads/avatars/${ID}.jpg`, null],
    [`/uploads/banners/${ID}.card.jpg`, null],
    ['/assets/banner-3-abc.svg', null],
    // Absolute, as the API answers with CORS_ORIGINS set: the copy is beside it, on the same origin.
    [
      `https://api.example.test/uploads/banners/${ID}.jpg`,
      `https://api.example.test/uploads/banners/${ID}.card.jpg`,
    ],
    [`https://api.example.test/x/uploads/banners/${ID}.jpg`, null],
    [null, null],
  ])('%j → %j', (path, card) => {
    expect(bannerCardPath(path)).toBe(card);
  });

  it('offer the card copy and the banner by width', () => {
    expect(bannerCardSrcSet(`/uploads/banners/${ID}.jpg`)).toBe(
      `/uploads/banners/${ID}.card.jpg 480w, /uploads/banners/${ID}.jpg 1184w`,
    );
    expect(bannerCardSrcSet('/assets/banner-1.svg')).toBeNull();
  });
});

describe('isAcceptableImage', () => {
  it('takes JPEG and PNG up to 5 MB only', () => {
    expect(isAcceptableImage({ type: 'image/jpeg', size: 5_242_880 })).toBe(true);
    expect(isAcceptableImage({ type: 'image/jpg', size: 1 })).toBe(true);
    expect(isAcceptableImage({ type: 'image/png', size: 5_242_881 })).toBe(false);
    expect(isAcceptableImage({ type: 'image/gif', size: 1 })).toBe(false);
  });
});
