import type Sharp from 'sharp';

let loading: Promise<typeof Sharp> | undefined;

/**
 * sharp (libvips) loaded at its first use, once: it costs an idle server some 27 MB of memory, and only image
 * uploads, materials and the demo's banners need it (issue 34, light servers).
 */
export function loadSharp(): Promise<typeof Sharp> {
  loading ??= import('sharp').then((module) => module.default);
  return loading;
}
