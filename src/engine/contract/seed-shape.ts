/**
 * What control seeding takes where it stores a part of a response as given (`result`, `error`,
 * `download`): the response's schema, except that a nullable field may be left out (stored as
 * null) and so may a list (stored empty). The stored part then has every field the response
 * schema requires, so a seeded run's body still validates against `/openapi.json`.
 */
import { z } from '@hono/zod-openapi';

/**
 * `schema`, lenient about absent nullable fields and lists; its output has them all.
 * @example seedShape(RunError).parse({ code: 'interrupted', message: 'm', resumable: true }).param // null
 */
export function seedShape<T extends z.ZodType>(schema: T): z.ZodType<z.output<T>> {
  return lenient(schema) as z.ZodType<z.output<T>>;
}

function lenient(schema: z.ZodType): z.ZodType {
  if (schema instanceof z.ZodNullable) return lenient(schema.unwrap() as z.ZodType).nullable();
  if (schema instanceof z.ZodOptional) return lenient(schema.unwrap() as z.ZodType).optional();
  if (schema instanceof z.ZodArray) return z.array(lenient(schema.element as z.ZodType));
  if (!(schema instanceof z.ZodObject)) return schema;
  const shape: Record<string, z.ZodType> = {};
  for (const [key, field] of Object.entries(schema.shape as Record<string, z.ZodType>)) {
    const inner = lenient(field);
    shape[key] =
      field instanceof z.ZodNullable
        ? inner.default(null)
        : field instanceof z.ZodArray
          ? inner.default([])
          : inner;
  }
  // Keep what the schema does with other keys: strict, a catchall, or stripped.
  const catchall = schema.def.catchall as z.ZodType | undefined;
  return catchall ? z.object(shape).catchall(catchall) : z.object(shape);
}
