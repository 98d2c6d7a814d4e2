/**
 * The time a disconnected teacher has to come back before their room ends: started when the teacher's
 * connection drops, cancelled when a teacher connection starts (or the room ends first).
 */
export class TeacherGrace {
  private readonly graceMs: number;
  private readonly expired: () => void;
  private timer: NodeJS.Timeout | null = null;

  constructor(graceMs: number, expired: () => void) {
    this.graceMs = graceMs;
    this.expired = expired;
  }

  /** Starts the grace period again from now; `atLeastMs` lengthens it (a teacher who stepped out). */
  start(atLeastMs = 0): void {
    this.cancel();
    this.timer = setTimeout(
      () => {
        this.timer = null;
        this.expired();
      },
      Math.max(this.graceMs, atLeastMs),
    );
  }

  /** Idempotent. */
  cancel(): void {
    if (this.timer) clearTimeout(this.timer);
    this.timer = null;
  }
}
