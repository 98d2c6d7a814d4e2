import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { idText } from '@sea/contract/ids';
import { ROUTES } from '@sea/contract/paths';
import { attachment } from '../content-disposition.ts';
import { errorResponses } from '../envelope.ts';
import { forbidden, notFound } from '../errors.ts';
import { findMaterial } from './material-store.ts';
import { MATERIAL_FILES } from './material-urls.ts';

const FileParams = z.object({ materialId: idText('자료 번호가 올바르지 않아요.'), file: z.string().max(40) });
const SignedQuery = z.object({
  exp: z.string().optional().describe('expiry, Unix seconds'),
  sig: z.string().optional().describe('signature of the material, the file kind and the expiry'),
  download: z.literal('1').optional().describe('the PDF only: as an attachment named after the material'),
});

/**
 * A material's files through their signed URLs only (the material routes hand them out): page images and
 * thumbnails (WebP) and the PDF. They never change under one name, so a browser keeps them as long as the
 * signature lives. An expired or altered signature answers 403 before anything about the files is told.
 */
export async function materialFileRoutes(fastify: FastifyInstance): Promise<void> {
  const app = fastify.withTypeProvider<ZodTypeProvider>();
  app.get(
    ROUTES.materialFile,
    {
      schema: {
        tags: ['materials'],
        summary: "A material's page image, thumbnail or PDF (signed URL from the material routes)",
        params: FileParams,
        querystring: SignedQuery,
        response: { 200: z.any(), ...errorResponses(400, 403, 404) },
      },
    },
    async (request, reply) => {
      const { materialId, file } = request.params;
      const { exp, sig, download } = request.query;
      if (!app.materialUrls.verify(materialId, file, exp, sig)) throw forbidden();
      const row = await findMaterial(app.db, materialId);
      const opened = row === null ? null : await app.materialFiles.open(`${row.key}/${file}`);
      if (row === null || opened === null) throw notFound('file');
      const pdf = file === MATERIAL_FILES.pdf;
      reply.header('content-type', pdf ? 'application/pdf' : 'image/webp');
      reply.header('content-length', String(opened.size));
      reply.header('cache-control', 'private, max-age=3600, immutable');
      if (pdf && download === '1') {
        reply.header('content-disposition', attachment(`material-${materialId}.pdf`, `${row.name}.pdf`));
      }
      return reply.send(opened.stream);
    },
  );
}
