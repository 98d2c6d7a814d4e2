/** How long a laser dot stays visible, fading out. */
export const LASER_FADE_MS = 1_200;
const MAX_DOTS = 60;

export type LaserDot = { x: number; y: number; at: number };

/** The laser pointer's recent positions (page coordinates), which fade and leave no ink. */
export class LaserTrail {
  #dots: LaserDot[] = [];

  add(x: number, y: number, at: number): void {
    this.#dots.push({ x, y, at });
    if (this.#dots.length > MAX_DOTS) this.#dots.shift();
  }

  /** The dots still visible at `now`, each with its opacity (1 fresh, 0 gone). */
  visible(now: number): Array<LaserDot & { alpha: number }> {
    this.#dots = this.#dots.filter((dot) => now - dot.at < LASER_FADE_MS);
    return this.#dots.map((dot) => ({ ...dot, alpha: 1 - (now - dot.at) / LASER_FADE_MS }));
  }

  get empty(): boolean {
    return this.#dots.length === 0;
  }
}
