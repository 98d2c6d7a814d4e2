import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { ROUTES } from '@sea/contract/paths';

/** The OpenAPI description of every REST route (from the routes' zod schemas), with Swagger UI. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: '바다학원 API',
        description:
          'REST API of Sea Academy. Every answer except the few bare routes is wrapped in the envelope ' +
          '`{status, message_kor, message_eng, data, timestamp}`; errors carry `error` and `data: "error"`.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform: createJsonSchemaTransform({ skipList: [] }),
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: ROUTES.docs });
}
