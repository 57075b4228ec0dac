import * as z from 'zod/mini';

/** Any zod schema, classic or mini: what the handler stack and the forms accept. */
export type Schema<T = unknown> = z.core.$ZodType<T>;

/**
 * A JSON request body: an object with exactly these fields. Unknown fields are refused by name,
 * so a client cannot slip in a status or an owner.
 */
export function strictBody<Shape extends z.core.$ZodShape>(shape: Shape) {
  return z.strictObject(shape, {
    error: (issue) =>
      issue.code === 'unrecognized_keys'
        ? `Unknown field: ${issue.keys.join(', ')}`
        : issue.code === 'invalid_type'
          ? 'Send the fields as one JSON object.'
          : undefined,
  });
}

/**
 * One message per field (the first), keyed by its dotted path; "_" holds form-level messages such
 * as unknown fields. The server's 400 body and the web forms both use it, so they say the same.
 */
export function fieldErrors(error: z.core.$ZodError): Record<string, string> {
  const fields: Record<string, string> = {};
  for (const issue of error.issues) {
    const key = issue.path.length ? issue.path.join('.') : '_';
    fields[key] ??= issue.message;
  }
  return fields;
}

/** Parses with any schema; `fields` as the 400 body carries them. */
export function validate<T>(
  schema: Schema<T>,
  value: unknown,
): { success: true; data: T } | { success: false; fields: Record<string, string> } {
  const result = z.safeParse(schema, value);
  return result.success ? { success: true, data: result.data } : { success: false, fields: fieldErrors(result.error) };
}
