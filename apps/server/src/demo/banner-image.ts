import { loadSharp } from '../load-sharp.ts';

const WIDTH = 1184;
const HEIGHT = 400;

const escapeXml = (text: string) =>
  text.replace(
    /[<>&'"]/g,
    (c) => ({ '<': '&lt;', '>': '&gt;', '&': '&amp;', "'": '&apos;', '"': '&quot;' })[c] ?? c,
  );

/**
 * A sea-gradient banner with the class title centred (cards crop banners to their middle) and a few waves,
 * rendered by sharp from SVG (JPEG).
 */
export async function bannerImage(title: string, [from, to]: [string, string]): Promise<Buffer> {
  const sharp = await loadSharp();
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}">
  <defs><linearGradient id="sea" x1="0" y1="0" x2="1" y2="1">
    <stop offset="0" stop-color="${from}"/><stop offset="1" stop-color="${to}"/>
  </linearGradient></defs>
  <rect width="100%" height="100%" fill="url(#sea)"/>
  <path d="M0 300 Q 148 260 296 300 T 592 300 T 888 300 T 1184 300 V 400 H 0 Z" fill="#ffffff" fill-opacity="0.18"/>
  <path d="M0 340 Q 148 300 296 340 T 592 340 T 888 340 T 1184 340 V 400 H 0 Z" fill="#ffffff" fill-opacity="0.25"/>
  <text x="50%" y="200" text-anchor="middle" font-family="Noto Sans CJK KR, Noto Sans KR, sans-serif" font-size="56" font-weight="700"
    fill="#ffffff">${escapeXml(title)}</text>
</svg>`;
  return sharp(Buffer.from(svg)).jpeg({ quality: 82 }).toBuffer();
}
