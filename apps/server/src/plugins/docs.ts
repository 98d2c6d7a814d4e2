import fastifySwagger from '@fastify/swagger';
import fastifySwaggerUi from '@fastify/swagger-ui';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransform, jsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { ROUTES } from '@sea/contract/paths';
import { IMAGE_PART } from '@sea/contract/uploads';

declare module 'fastify' {
  interface FastifySchema {
    /**
     * Documents a multipart body read by the route itself (one JSON part and an optional image), which the
     * request validator never sees.
     */
    multipartBody?: { jsonPart: string; schema: z.ZodType };
    /** Documents a multipart body of one file part (a material's document), read by the route itself. */
    multipartFile?: { part: string; description: string };
  }
}

const zodTransform = createJsonSchemaTransform({ skipList: [] });
type TransformInput = Parameters<typeof zodTransform>[0];

/** The zod transform, plus multipart bodies: the JSON part's schema and the `imagefile` file part. */
function transform(input: TransformInput) {
  const { multipartBody, multipartFile, ...schema } = (input.schema ?? {}) as {
    multipartBody?: { jsonPart: string; schema: z.ZodType };
    multipartFile?: { part: string; description: string };
  };
  const result = zodTransform({ ...input, schema } as TransformInput) as {
    schema: Record<string, unknown>;
    url: string;
  };
  if (multipartBody) {
    result.schema.consumes = ['multipart/form-data'];
    result.schema.body = {
      type: 'object',
      required: [multipartBody.jsonPart],
      properties: {
        [multipartBody.jsonPart]: {
          ...z.toJSONSchema(multipartBody.schema, { io: 'input', unrepresentable: 'any' }),
          description: 'JSON text (a plain field or a Blob of type application/json)',
        },
        [IMAGE_PART]: { type: 'string', format: 'binary', description: 'JPEG or PNG, at most 5 MB' },
      },
    };
  }
  if (multipartFile) {
    result.schema.consumes = ['multipart/form-data'];
    result.schema.body = {
      type: 'object',
      required: [multipartFile.part],
      properties: {
        [multipartFile.part]: { type: 'string', format: 'binary', description: multipartFile.description },
      },
    };
  }
  return result;
}

/** The OpenAPI description of every REST route (from the routes' zod schemas), with Swagger UI. */
export async function registerDocs(app: FastifyInstance): Promise<void> {
  await app.register(fastifySwagger, {
    openapi: {
      openapi: '3.1.0',
      info: {
        title: '바다학원 API',
        description:
          'REST API of Sea Academy. Every answer except the few bare routes is wrapped in the envelope ' +
          '`{status, message_kor, message_eng, data, timestamp}`; errors carry `error` and `data: "error"`, ' +
          'validation failures also `invalid_fields` (field → Korean message). The chat is STOMP at `/ws`: a ' +
          'plain WebSocket, or SockJS at the same address (`/ws/info`; websocket, xhr-streaming, xhr-polling ' +
          'and eventsource transports), CONNECT carrying `Authorization: Bearer`. Front ends served from other ' +
          'origins must be listed in CORS_ORIGINS; image paths (`/uploads/...`) are relative to this server.',
        version: '1.0.0',
      },
      components: {
        securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } },
      },
    },
    transform,
    transformObject: jsonSchemaTransformObject,
  });
  await app.register(fastifySwaggerUi, { routePrefix: ROUTES.docs });
}
