// The write limits' values, apart from the plugin that applies them (plugins/rate-limit.ts): the
// configuration reads them without loading @fastify/rate-limit and ioredis.

/** A limit: at most `max` requests per `timeWindow` (`'1 hour'`, `'10 minutes'`). */
export type Limit = { max: number; timeWindow: string };

/** The write limits of the API, one per kind of write (a new write route, reviews say, adds one here). */
export const WRITE_LIMITS = {
  /** `POST /api/classes`. */
  classCreation: { max: 10, timeWindow: '1 hour' },
  /** The other routes that take an image: `PATCH /api/classes/{id}` and `PATCH /api/users`, each on its own. */
  upload: { max: 30, timeWindow: '10 minutes' },
  /** `POST /api/auth/signup` (per login account). */
  signUp: { max: 10, timeWindow: '1 hour' },
  /** Posting a review, editing one, and a teacher's reply, each on its own. */
  review: { max: 30, timeWindow: '1 hour' },
  /** Enrolling and cancelling (수강 취소), each on its own: sixty flips put sixty notices in a teacher's bell. */
  enrolment: { max: 20, timeWindow: '1 hour' },
} as const satisfies Record<string, Limit>;
export type WriteLimitName = keyof typeof WRITE_LIMITS;

/** The write limits lifted (`WRITE_LIMITS=off`, and test apps): a million an hour of each kind. */
export const NO_WRITE_LIMITS: Record<WriteLimitName, Limit> = {
  classCreation: { max: 1_000_000, timeWindow: '1 hour' },
  upload: { max: 1_000_000, timeWindow: '1 hour' },
  signUp: { max: 1_000_000, timeWindow: '1 hour' },
  review: { max: 1_000_000, timeWindow: '1 hour' },
  enrolment: { max: 1_000_000, timeWindow: '1 hour' },
};
