/** Helpers of the control API's route declarations. */
import { createRoute, z } from '@hono/zod-openapi';

export const json = <T extends z.ZodType>(schema: T) => ({
  required: true,
  content: { 'application/json': { schema } },
});

export const AccountParam = z.object({
  account_id: z.string().openapi({ param: { name: 'account_id', in: 'path' } }),
});

/** A control API route: tagged `Control` in the control document. */
export const route = <const R extends Parameters<typeof createRoute>[0]>(r: R) =>
  createRoute({ ...r, tags: ['Control'] });
