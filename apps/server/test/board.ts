import type { FastifyInstance } from 'fastify';
import type { BoardInk } from '@sea/contract/board';
import { materialPages, materials } from '../src/db/schema.ts';

/** A ready material of the class with these page titles (rows only: no files), as its conversion leaves it. */
export async function insertReadyMaterial(
  app: FastifyInstance,
  classId: number,
  titles: readonly (string | null)[],
): Promise<number> {
  const [row] = await app.db
    .insert(materials)
    .values({
      classId,
      name: '자료',
      kind: 'pdf',
      state: 'ready',
      progress: 100,
      pages: titles.length,
      key: 'materials/x',
    })
    .returning({ id: materials.id });
  if (!row) throw new Error('material not created');
  await app.db.insert(materialPages).values(
    titles.map((title, index) => ({
      materialId: row.id,
      number: index + 1,
      title,
      width: 2560,
      height: 1920,
    })),
  );
  return row.id;
}

/** A piece of a pen stroke with `count` points along a diagonal, starting at point `from`. */
export function penPiece(
  roomId: number,
  at: { materialId: number; page: number; strokeId: string },
  count: number,
  options: { from?: number; done?: boolean } = {},
): BoardInk {
  const from = options.from ?? 0;
  return {
    roomId,
    ...at,
    tool: 'pen',
    color: '#e03131',
    width: 0.004,
    points: Array.from({ length: count }, (_, index): [number, number, number] => {
      const t = ((from + index) % 1000) / 1000;
      return [t, t, 0.5];
    }),
    done: options.done ?? false,
  };
}
