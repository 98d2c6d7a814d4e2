import { drawStroke, type InkContext } from './draw-stroke.ts';
import type { LaserTrail } from './laser-trail.ts';
import type { PageSize } from './ink-types.ts';
import type { PageInk } from './page-ink.ts';

/** A canvas the renderer draws on: the visible one, or the offscreen cache of finished strokes. */
export type InkSurface = {
  width: number;
  height: number;
  getContext(kind: '2d'): (InkContext & DrawImage & ClearRect & Transform) | null;
};
type DrawImage = { drawImage(image: never, x: number, y: number, w: number, h: number): void };
type ClearRect = { clearRect(x: number, y: number, w: number, h: number): void };
type Transform = {
  setTransform(a: number, b: number, c: number, d: number, e: number, f: number): void;
  arc(x: number, y: number, r: number, start: number, end: number): void;
};

const LASER_COLOR = '#ff3b30';

/**
 * Draws a page's ink on a canvas of the page's size at the screen's pixel density. Finished strokes are drawn
 * once onto an offscreen layer, again only when they change (a stroke ends, an erase, a resize); each frame
 * copies that layer and draws only the strokes in progress and the laser on top, so a page with thousands of
 * points costs one image copy per frame.
 */
export class InkRenderer {
  readonly #canvas: InkSurface;
  readonly #cache: InkSurface;
  #size: PageSize = { width: 0, height: 0 };
  #ratio = 1;
  #cachedVersion = -1;
  #cachedInk: PageInk | null = null;

  constructor(canvas: InkSurface, createLayer: () => InkSurface) {
    this.#canvas = canvas;
    this.#cache = createLayer();
  }

  /** The page's size in CSS pixels and the screen's pixel ratio; the canvas's pixels follow them. */
  resize(size: PageSize, ratio: number): void {
    // Compared with this renderer's own size, not the canvas's: a canvas kept across pages has the right pixels
    // already, but a new renderer on it still has to learn the page's size.
    if (size.width === this.#size.width && size.height === this.#size.height && ratio === this.#ratio) return;
    const width = Math.max(1, Math.round(size.width * ratio));
    const height = Math.max(1, Math.round(size.height * ratio));
    this.#size = size;
    this.#ratio = ratio;
    for (const surface of [this.#canvas, this.#cache]) {
      surface.width = width;
      surface.height = height;
    }
    this.#cachedVersion = -1;
  }

  get size(): PageSize {
    return this.#size;
  }

  /** Draws one frame: the cached finished strokes, then the strokes in progress and the laser's dots. */
  draw(ink: PageInk, laser: LaserTrail | null = null, now = 0): void {
    const context = this.#canvas.getContext('2d');
    if (!context) return;
    if (ink !== this.#cachedInk || ink.version !== this.#cachedVersion) this.#redrawCache(ink);
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, this.#canvas.width, this.#canvas.height);
    context.drawImage(this.#cache as never, 0, 0, this.#canvas.width, this.#canvas.height);
    context.setTransform(this.#ratio, 0, 0, this.#ratio, 0, 0);
    for (const stroke of ink.inProgress()) drawStroke(context, stroke, this.#size);
    if (laser) {
      for (const dot of laser.visible(now)) {
        context.save();
        context.globalAlpha = dot.alpha;
        context.fillStyle = LASER_COLOR;
        context.beginPath();
        context.arc(dot.x * this.#size.width, dot.y * this.#size.height, 6 * dot.alpha + 2, 0, 2 * Math.PI);
        context.fill();
        context.restore();
      }
    }
  }

  #redrawCache(ink: PageInk): void {
    const context = this.#cache.getContext('2d');
    if (!context) return;
    context.setTransform(1, 0, 0, 1, 0, 0);
    context.clearRect(0, 0, this.#cache.width, this.#cache.height);
    context.setTransform(this.#ratio, 0, 0, this.#ratio, 0, 0);
    for (const stroke of ink.finished()) drawStroke(context, stroke, this.#size);
    this.#cachedVersion = ink.version;
    this.#cachedInk = ink;
  }
}
