/**
 * Thrown while rendering a page whose address names nothing that can exist (a class id of letters, 0, or above
 * the contract's MAX_ID): the route's error boundary shows the 404 page instead of asking the server.
 */
export class NotFoundError extends Error {
  constructor(what: string) {
    super(`not found: ${what}`);
    this.name = 'NotFoundError';
  }
}
