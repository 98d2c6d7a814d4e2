import type { FastifyInstance } from 'fastify';

/**
 * JSON bodies as Fastify parses them (with its prototype-poisoning protection), except that an empty body
 * reads as no body: older clients send `PATCH .../isActive` with a JSON content type and nothing else.
 */
export function registerJsonBody(app: FastifyInstance): void {
  const parseJson = app.getDefaultJsonParser('error', 'error');
  app.removeContentTypeParser('application/json');
  app.addContentTypeParser('application/json', { parseAs: 'string' }, (request, body, done) => {
    const text = body.toString();
    if (text.trim() === '') {
      done(null, undefined);
      return;
    }
    parseJson(request, text, done);
  });
}
