/**
 * The object store refused or could not take a request (a bucket without write access, a store that is down):
 * the error handler answers 503 with a reason a person can act on; what failed to be written is not kept.
 */
export class StoreUnavailable extends Error {
  readonly access: 'read' | 'write';

  constructor(access: 'read' | 'write', cause: unknown) {
    super(`the object store refused a ${access}: ${cause instanceof Error ? cause.message : String(cause)}`, {
      cause,
    });
    this.name = 'StoreUnavailable';
    this.access = access;
  }
}
